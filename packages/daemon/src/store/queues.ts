import type { WeeklySlot } from '@socialpub/core';
import type { DB } from './database';

export interface QueueRecord {
  timezone: string;
  capacity: number;
  slots: WeeklySlot[];
  updatedAt: number;
}

export type QueuesRepository = ReturnType<typeof createQueuesRepository>;

/** A user's weekly posting slots (one queue per user). */
export function createQueuesRepository(db: DB) {
  const one = db.prepare<[string], { timezone: string; capacity: number; slots: string; updated_at: number }>('SELECT * FROM queues WHERE user_id = ?');
  const put = db.prepare(
    `INSERT INTO queues (user_id, timezone, capacity, slots, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET timezone = excluded.timezone, capacity = excluded.capacity, slots = excluded.slots, updated_at = excluded.updated_at`,
  );
  return {
    get(userId: string): QueueRecord | null {
      const r = one.get(userId);
      return r ? { timezone: r.timezone, capacity: r.capacity, slots: JSON.parse(r.slots) as WeeklySlot[], updatedAt: r.updated_at } : null;
    },
    replace(userId: string, q: Omit<QueueRecord, 'updatedAt'>, now: number): void {
      put.run(userId, q.timezone, q.capacity, JSON.stringify(q.slots), now);
    },
  };
}
