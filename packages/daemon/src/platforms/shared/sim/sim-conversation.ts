import { createHash } from 'node:crypto';

/** The simulated readers who answer a share of sandbox posts (docs/platforms/simulators.md "Conversations"). */
export const SIM_READERS = Object.freeze([
  { username: 'ada_reads', name: 'Ada (sandbox reader)' },
  { username: 'grace_comments', name: 'Grace (sandbox reader)' },
  { username: 'linus_asks', name: 'Linus (sandbox reader)' },
] as const);

const LINES = Object.freeze(['Love this, thanks for sharing!', 'Where can I read more about this?', 'Great point. Does this work on mobile too?', 'Saved for later 🙌']);

/** One in this many posts gets a reader's reply. */
export const SIM_REPLY_SHARE = 2;
/** How long after the post the reader's reply appears (by the simulators' clock). */
export const SIM_REPLY_AFTER_MS = 2 * 60_000;

export interface SimReaderReply {
  reader: (typeof SIM_READERS)[number];
  text: string;
  /** When it appears (epoch ms). */
  at: number;
}

/**
 * Whether a reader answers the post with this id (a root post of a sandbox connection), and
 * what: decided by the id alone, so the same post gets the same reply on every run and
 * restart. A simulator makes the reply when the post's conversation is read at or after `at`.
 */
export function simReaderReply(postId: string, postedAt: number): SimReaderReply | null {
  const h = createHash('sha256').update(`socialpub:sim-reply:${postId}`).digest();
  if (h[0]! % SIM_REPLY_SHARE !== 0) return null;
  return { reader: SIM_READERS[h[1]! % SIM_READERS.length]!, text: LINES[h[2]! % LINES.length]!, at: postedAt + SIM_REPLY_AFTER_MS };
}
