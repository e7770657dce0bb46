import type { Platform } from '../platforms';
import { Temporal } from './temporal';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One weekly posting slot: a weekday and a local time in the queue's zone. */
export interface WeeklySlot {
  day: Weekday;
  /** `HH:MM`, 24-hour local time. */
  time: string;
  /** Only posts whose platforms are all among these take the slot; absent: any post. */
  platforms?: readonly Platform[] | null | undefined;
  /** Posts the slot holds; absent: the queue's capacity. */
  capacity?: number | null | undefined;
}

/** One dated occurrence of a weekly slot. */
export interface SlotInstance {
  at: number;
  /** Stable name of the weekly slot (`mon 09:00` or `mon 09:00 instagram,twitter`): posts in it are counted per key and instant. */
  key: string;
  slot: WeeklySlot;
}

export function slotKey(slot: WeeklySlot): string {
  const base = `${slot.day} ${slot.time}`;
  return slot.platforms && slot.platforms.length > 0 ? `${base} ${[...slot.platforms].sort().join(',')}` : base;
}

/** Whether a post to `platforms` may take the slot. */
export function slotAccepts(slot: WeeklySlot, platforms: readonly Platform[]): boolean {
  if (!slot.platforms || slot.platforms.length === 0) return true;
  return platforms.every((p) => slot.platforms?.includes(p));
}

/**
 * The dated slots after `after` (epoch ms), in time order, without end: the caller stops.
 * Each slot follows wall-clock time, so a 09:00 slot stays at 09:00 local across DST. A
 * slot time that a spring-forward change skips moves forward by the gap (02:30 -> 03:30,
 * Temporal's `compatible`); one that a fall-back change repeats takes the earlier instant.
 */
export function* slotInstancesAfter(slots: readonly WeeklySlot[], zone: string, after: number): Generator<SlotInstance> {
  if (slots.length === 0) return;
  const byDay = new Map<number, { slot: WeeklySlot; time: Temporal.PlainTime; key: string }[]>();
  for (const slot of slots) {
    const iso = WEEKDAYS.indexOf(slot.day) + 1;
    const list = byDay.get(iso) ?? [];
    list.push({ slot, time: Temporal.PlainTime.from(slot.time), key: slotKey(slot) });
    byDay.set(iso, list);
  }
  // Start a day early: an instant late in the local day before may still be after `after`.
  let date = Temporal.Instant.fromEpochMilliseconds(after).toZonedDateTimeISO(zone).toPlainDate().subtract({ days: 1 });
  for (;;) {
    const today = byDay.get(date.dayOfWeek) ?? [];
    const dated = today
      .map((s) => ({ at: date.toPlainDateTime(s.time).toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds, key: s.key, slot: s.slot }))
      .filter((s) => s.at > after)
      .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
    yield* dated;
    date = date.add({ days: 1 });
  }
}
