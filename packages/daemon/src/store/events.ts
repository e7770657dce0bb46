import type { Platform } from '@socialpub/core';
import type { DB } from './database';
import { dialectOf, type PostgresDatabase } from './postgres/pg-database';
import { createOutboxWriter, type StoredData } from './outbox';

export type { NewEvent } from './outbox';

/** An event as stored: `data` holds the payload facts with times as epoch ms in `*_at` keys. */
export interface StoredEvent {
  id: number;
  userId: string;
  type: string;
  jobId: string | null;
  subject: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

export interface EventRow {
  id: number;
  user_id: string;
  type: string;
  job_id: string | null;
  subject: string | null;
  data: string;
  created_at: number;
}

export const toEvent = (r: EventRow): StoredEvent => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  jobId: r.job_id,
  subject: r.subject,
  data: JSON.parse(r.data) as Record<string, unknown>,
  createdAt: r.created_at,
});

export interface EventFilter {
  /** Exact types, or prefixes ending in '.' (from `target.*`). */
  types?: readonly string[];
  jobId?: string;
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;

/**
 * The outbox. Events are appended inside the transaction of the change they report, by the
 * store operation that makes it (state-events.ts) or the service deciding it; readers page by id.
 */
export function createEventsRepository(db: DB) {
  const outbox = createOutboxWriter(db);
  const after = db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?');
  const byId = db.prepare<[number], EventRow>('SELECT * FROM events WHERE id = ?');
  const last = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM events');
  const oldest = db.prepare<[string], { id: number | null }>('SELECT min(id) AS id FROM events WHERE user_id = ?');
  // Events still needed by a pending delivery stay until it ends.
  const prune = db.prepare(
    `DELETE FROM events WHERE created_at < ? AND id NOT IN (SELECT event_id FROM webhook_messages WHERE status = 'pending' AND event_id IS NOT NULL)`,
  );
  // Live tokens running out within the window whose expiry has had no warning yet.
  const expiring = db.prepare<[{ now: number; ahead: number }], { id: string; user_id: string; platform: Platform; label: string; token_expires_at: number }>(
    `SELECT c.id, c.user_id, c.platform, c.label, c.token_expires_at FROM connections c
     WHERE c.status = 'active' AND c.mode = 'live' AND c.token_expires_at IS NOT NULL
       AND c.token_expires_at > @now AND c.token_expires_at <= @now + @ahead
       AND NOT EXISTS (SELECT 1 FROM events e WHERE e.subject = c.id AND e.type = 'connection.expiring_soon'
                       AND CAST(e.data->>'expires_at' AS BIGINT) = c.token_expires_at)`,
  );
  const connection = db.prepare<[string], { user_id: string; platform: Platform; label: string }>('SELECT user_id, platform, label FROM connections WHERE id = ?');

  // The read and the warnings in one transaction (a savepoint inside the sweep's): each expiry warned once.
  const warn = db.transaction((now: number, aheadMs: number): number => {
    const due = expiring.all({ now, ahead: aheadMs });
    outbox.appendMany(
      due.map((c) => {
        const data: StoredData<'connection.expiring_soon'> = { connection_id: c.id, platform: c.platform, label: c.label, expires_at: c.token_expires_at };
        return { userId: c.user_id, type: 'connection.expiring_soon', subject: c.id, data, at: now };
      }),
    );
    return due.length;
  });

  const matches = (e: StoredEvent, f: EventFilter) =>
    (f.jobId === undefined || e.jobId === f.jobId) &&
    (f.types === undefined || f.types.length === 0 || f.types.some((t) => (t.endsWith('.') ? e.type.startsWith(t) : e.type === t)));

  return {
    /** Appends an event (inside the transaction of the change it reports); returns its id. */
    append: outbox.append,
    /** Appends events in order, in one statement. */
    appendMany: outbox.appendMany,
    get(id: number): StoredEvent | null {
      const r = byId.get(id);
      return r ? toEvent(r) : null;
    },
    /** The user's events after `afterId` in id order that pass the filter; `scanned` is the last id looked at. */
    listAfter(userId: string, afterId: number, filter: EventFilter, limit = 500): { events: StoredEvent[]; scanned: number } {
      const events: StoredEvent[] = [];
      let scanned = afterId;
      for (;;) {
        const rows = after.all(userId, scanned, limit);
        for (const r of rows) {
          scanned = r.id;
          const e = toEvent(r);
          if (matches(e, filter)) events.push(e);
          if (events.length >= limit) return { events, scanned };
        }
        if (rows.length < limit) return { events, scanned };
      }
    },
    /** The newest event id in the outbox (0 when empty). */
    lastId(): number {
      return last.get()?.id ?? 0;
    },
    /** The user's oldest event still kept (null when none). */
    oldestId(userId: string): number | null {
      return oldest.get(userId)?.id ?? null;
    },
    /** Drops events older than `before` that no pending delivery needs; returns how many. */
    prune(before: number): number {
      return prune.run(before).changes;
    },
    /** connection.refresh_failed for a connection (its user from the row). */
    refreshFailed(connectionId: string, error: string, willRetry: boolean, now: number): void {
      const c = connection.get(connectionId);
      if (!c) return;
      const data: StoredData<'connection.refresh_failed'> = { connection_id: connectionId, platform: c.platform, label: c.label, error, will_retry: willRetry };
      outbox.append({ userId: c.user_id, type: 'connection.refresh_failed', subject: connectionId, data, at: now });
    },
    /** connection.expiring_soon once per token expiry for live tokens running out within `aheadMs`. */
    warnExpiring(now: number, aheadMs: number): number {
      return warn(now, aheadMs);
    },
    /**
     * Calls `written` whenever this connection inserts an event (whoever writes it: the
     * jobs service, the publisher's and media worker's store writes, the deliverer). It runs
     * inside the writing transaction, before the commit: it must only take note (schedule
     * work for after the current synchronous code), never touch the database. A TEMP
     * trigger calling a function of this connection: nothing is stored in the file, so other
     * processes (the CLI's admin commands, an sqlite3 shell) write events as before and are
     * seen by the hub's poll. Returns a function that stops it.
     */
    onAppend(written: () => void): () => void {
      // PostgreSQL: every insert NOTIFYs socialpub_events (the baseline's trigger), heard after
      // the commit, from this daemon's writes and every other daemon's.
      if (dialectOf(db) === 'postgres') return (db as unknown as PostgresDatabase).listen('socialpub_events', written);
      db.function(APPEND_FUNCTION, { deterministic: false, directOnly: true }, () => {
        written();
        return null;
      });
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${APPEND_TRIGGER} AFTER INSERT ON main.events BEGIN SELECT ${APPEND_FUNCTION}(); END`);
      return () => {
        if (db.open) db.exec(`DROP TRIGGER IF EXISTS temp.${APPEND_TRIGGER}`);
      };
    },
  };
}

const APPEND_FUNCTION = 'socialpub_event_appended';
const APPEND_TRIGGER = 'socialpub_event_appended';
