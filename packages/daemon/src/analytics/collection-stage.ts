import { COLLECTION_AGES_MS } from '@socialpub/core';

/**
 * A target's place in the collection schedule after a reading at `now`: the ages
 * (COLLECTION_AGES_MS) already reached count as read (a daemon that was down reads once for
 * every age it missed), and the next reading is at the first age still ahead; null when the
 * 30-day reading is done.
 */
export function nextCollection(publishedAt: number, stage: number, now: number): { stage: number; nextAt: number | null } {
  let reached = stage;
  while (reached < COLLECTION_AGES_MS.length && publishedAt + COLLECTION_AGES_MS[reached]! <= now) reached += 1;
  return { stage: reached, nextAt: reached < COLLECTION_AGES_MS.length ? publishedAt + COLLECTION_AGES_MS[reached]! : null };
}
