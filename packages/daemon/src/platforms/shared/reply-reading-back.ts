import type { ReplyContext } from '../conversations';
import { PermanentError } from '../errors';
import type { PostedRef } from './follow-ups/reply-poster';

/** What a reply keeps in its checkpoint where the network has no idempotency key: when it first went out. */
interface ReplyCheckpoint {
  sentAt?: number;
}

/** Text as compared when a reply is looked for: the network may trim or re-space it. */
export const comparable = (text: string) => text.normalize('NFC').replace(/\s+/g, '');

/**
 * A reply on a network without an idempotency key (Instagram, Facebook, YouTube, LinkedIn):
 * a reply whose request went out before (the checkpoint says so) is first looked for (our
 * account, this text, under the comment) and only sent again when it is not there; a
 * refusal of the second send looks once more (the first one may have landed meanwhile).
 */
export async function replyReadingBack(ctx: ReplyContext, find: () => Promise<PostedRef | null>, send: () => Promise<PostedRef>): Promise<PostedRef> {
  const cp = ctx.checkpoint.data as ReplyCheckpoint;
  const sentBefore = cp.sentAt !== undefined;
  if (sentBefore) {
    const found = await find();
    if (found) return found;
  } else {
    await ctx.checkpoint.save({ sentAt: ctx.clock.now() });
  }
  try {
    return await send();
  } catch (err) {
    if (sentBefore && err instanceof PermanentError) {
      const found = await find();
      if (found) return found;
    }
    throw err;
  }
}
