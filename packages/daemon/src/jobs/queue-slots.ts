import { slotAccepts, slotInstancesAfter, type Platform, type WeeklySlot } from '@socialpub/core';
import type { QueueRecord } from '../store/queues';
import type { Store } from '../store/store';

/** Free slots are looked for this far ahead; a queue full for longer is refused (409). */
export const QUEUE_SEARCH_DAYS = 366;
const DAY_MS = 86_400_000;

export interface FreeSlot {
  at: number;
  key: string;
  slot: WeeklySlot;
  /** Places left. */
  free: number;
}

/**
 * The next free dated slots of a queue for a post to `platforms`, after `now`, in time
 * order. A slot is taken by the queued jobs in it that still have a target not cancelled,
 * so cancelling a post frees its place.
 */
export function nextFreeSlots(store: Store, userId: string, queue: QueueRecord, platforms: readonly Platform[] | null, now: number, count: number): FreeSlot[] {
  const taken = store.jobTimes.takenSlots(userId, now);
  const end = now + QUEUE_SEARCH_DAYS * DAY_MS;
  const found: FreeSlot[] = [];
  for (const inst of slotInstancesAfter(queue.slots, queue.timezone, now)) {
    if (inst.at > end || found.length >= count) break;
    if (platforms && !slotAccepts(inst.slot, platforms)) continue;
    const free = (inst.slot.capacity ?? queue.capacity) - (taken.get(`${inst.key}@${inst.at}`) ?? 0);
    if (free > 0) found.push({ at: inst.at, key: inst.key, slot: inst.slot, free });
  }
  return found;
}
