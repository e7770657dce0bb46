const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How often a post's comments are read, by its age: most answers come in the first hours,
 * so a new post is read every 2 minutes, a day-old one every 2 hours, and one over 30 days
 * old no more (POST /inbox/refresh still reads the last 30 days on demand). docs/api.md "Inbox".
 */
const STEPS: readonly { under: number; every: number }[] = [
  { under: HOUR, every: 2 * MINUTE },
  { under: 6 * HOUR, every: 10 * MINUTE },
  { under: DAY, every: 30 * MINUTE },
  { under: 3 * DAY, every: 2 * HOUR },
  { under: 7 * DAY, every: 6 * HOUR },
  { under: 30 * DAY, every: DAY },
];

/** How long comments are collected after a post is published. */
export const COLLECT_FOR_MS = 30 * DAY;
/** A post no longer collected is due at this time: never. */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** When a target published at `publishedAt`, read at `now`, is read next; `failures` in a row double the wait (at most a day). */
export function nextPollAt(publishedAt: number, now: number, failures = 0): number {
  const age = now - publishedAt;
  const step = STEPS.find((s) => age < s.under);
  if (!step) return NEVER;
  return now + Math.min(step.every * 2 ** Math.min(failures, 10), DAY);
}
