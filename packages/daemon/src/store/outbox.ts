import type { EventDataOf } from '@socialpub/core';
import type { DB } from './database';

/** A payload as stored: core's data of the type with its times (`*_at`, `scheduled_for`) as epoch ms. */
export type Stored<T> = T extends readonly (infer U)[]
  ? Stored<U>[]
  : T extends object
    ? { [K in keyof T]: K extends `${string}_at` | 'scheduled_for' ? (null extends T[K] ? number | null : number) : Stored<T[K]> }
    : T;

/** The stored data of an event type (core's schemas/event-data.ts): builders annotate with it, so the compiler checks them against the schema. */
export type StoredData<T extends keyof EventDataOf> = Stored<EventDataOf[T]>;

/**
 * An event to write: `data` holds the payload facts with times as epoch ms under `*_at`
 * (and `scheduled_for`) keys; events/present-event.ts turns them into ISO instants. The
 * data of each type is core's schema of it (schemas/event-data.ts) with those times as
 * numbers; state-events.ts builds the ones of the store's state changes.
 */
export interface NewEvent {
  userId: string;
  type: string;
  jobId?: string | null;
  subject?: string | null;
  data: Record<string, unknown>;
  at: number;
}

export type OutboxWriter = ReturnType<typeof createOutboxWriter>;

/**
 * Appends to the outbox, inside the caller's transaction (the one that makes the change the
 * events report). Many events go in one statement over a JSON array (ids in array order),
 * so a batch of the publisher costs one INSERT, as the triggers it replaces cost one
 * statement. Each insert fans out to webhook deliveries (migration 040's trigger).
 */
export function createOutboxWriter(db: DB) {
  const insert = db.prepare(
    'INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (@userId, @type, @jobId, @subject, @data, @at) RETURNING id',
  );
  const insertMany = db.prepare<[string]>(
    `INSERT INTO events (user_id, type, job_id, subject, data, created_at)
     SELECT value->>'u', value->>'t', value->>'j', value->>'s', value->'d', CAST(value->>'a' AS BIGINT) FROM json_each(?) ORDER BY key`,
  );
  /** Appends one event; returns its id. */
  function append(e: NewEvent): number {
    const data = JSON.stringify(e.data);
    return Number((insert.get({ userId: e.userId, type: e.type, jobId: e.jobId ?? null, subject: e.subject ?? null, data, at: e.at }) as { id: number }).id);
  }
  return {
    append,
    /** Appends `events` in order (one statement for many). */
    appendMany(events: readonly NewEvent[]): void {
      if (events.length === 0) return;
      if (events.length === 1) {
        append(events[0] as NewEvent);
        return;
      }
      insertMany.run(JSON.stringify(events.map((e) => ({ u: e.userId, t: e.type, j: e.jobId ?? null, s: e.subject ?? null, d: e.data, a: e.at }))));
    },
  };
}
