import type { DB } from './database';
import { toEvent, type EventRow, type StoredEvent } from './events';

export interface EndpointRecord {
  id: string;
  userId: string;
  url: string;
  description: string;
  eventTypes: string[];
  secretEnc: string;
  previousSecretEnc: string | null;
  previousUntil: number | null;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

interface EndpointRow {
  id: string;
  user_id: string;
  url: string;
  description: string;
  event_types: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_until: number | null;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

const toEndpoint = (r: EndpointRow): EndpointRecord => ({
  id: r.id,
  userId: r.user_id,
  url: r.url,
  description: r.description,
  eventTypes: JSON.parse(r.event_types) as string[],
  secretEnc: r.secret_enc,
  previousSecretEnc: r.previous_secret_enc,
  previousUntil: r.previous_until,
  status: r.status,
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface MessageRecord {
  id: number;
  endpointId: string;
  eventId: number | null;
  body: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
}

interface MessageRow {
  id: number;
  endpoint_id: string;
  event_id: number | null;
  body: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
}

const toMessage = (r: MessageRow): MessageRecord => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  body: r.body,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
});

/** A due delivery with the event it carries (null: a test message, or the event is gone). */
export interface DueMessage extends MessageRecord {
  event: StoredEvent | null;
}

type DueRow = MessageRow & { [K in keyof EventRow as `e_${K}`]: EventRow[K] | null };

const toDue = (r: DueRow): DueMessage => ({
  ...toMessage(r),
  event:
    r.e_id === null
      ? null
      : toEvent({ id: r.e_id, user_id: r.e_user_id as string, type: r.e_type as string, job_id: r.e_job_id, subject: r.e_subject, data: r.e_data as string, created_at: r.e_created_at as number }),
});

export interface AttemptRecord {
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/** How an attempt ended: delivered, retry at `nextAt`, or given up. */
export type AttemptEnd = { kind: 'delivered' } | { kind: 'retry'; nextAt: number } | { kind: 'failed' };

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

/** Webhook endpoints, their deliveries (messages) and each delivery's attempts. */
export function createWebhooksRepository(db: DB) {
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (id, user_id, url, description, event_types, secret_enc, status, created_at, updated_at)
     VALUES (@id, @userId, @url, @description, @eventTypes, @secretEnc, 'active', @now, @now)`,
  );
  const byId = db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const byUser = db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = ? ORDER BY created_at, id');
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ?');
  const update = db.prepare(
    `UPDATE webhook_endpoints SET url = @url, description = @description, event_types = @eventTypes, updated_at = @now WHERE id = @id`,
  );
  const rotate = db.prepare(
    `UPDATE webhook_endpoints SET previous_secret_enc = secret_enc, previous_until = @until, secret_enc = @secretEnc, updated_at = @now WHERE id = @id`,
  );
  const enable = db.prepare(
    `UPDATE webhook_endpoints SET status = 'active', disabled_reason = NULL, failing_since = NULL, updated_at = ? WHERE id = ?`,
  );
  const disable = db.prepare(
    `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, updated_at = ? WHERE id = ? AND status = 'active'`,
  );
  const dropPending = db.prepare(`UPDATE webhook_messages SET status = 'failed', next_attempt_at = NULL, ended_at = ? WHERE endpoint_id = ? AND status = 'pending'`);
  const remove = db.prepare('DELETE FROM webhook_endpoints WHERE id = ?');
  // The active endpoints with a delivery due, by their oldest due delivery (the partial
  // index of migration 130 walks only pending rows, in id order).
  const dueEndpoints = db.prepare<[number], EndpointRow>(
    `SELECT * FROM (
       SELECT e.*, (SELECT p.id FROM webhook_messages p INDEXED BY webhook_messages_pending
                    WHERE p.endpoint_id = e.id AND p.status = 'pending' AND p.next_attempt_at <= ? ORDER BY p.id LIMIT 1) AS first_due
       FROM webhook_endpoints e WHERE e.status = 'active') AS due
     WHERE first_due IS NOT NULL ORDER BY first_due`,
  );
  const dueFor = db.prepare<[string, number, number, number], DueRow>(
    `SELECT m.*, e.id AS e_id, e.user_id AS e_user_id, e.type AS e_type, e.job_id AS e_job_id, e.subject AS e_subject,
            e.data AS e_data, e.created_at AS e_created_at
     FROM webhook_messages m INDEXED BY webhook_messages_pending LEFT JOIN events e ON e.id = m.event_id
     WHERE m.endpoint_id = ? AND m.status = 'pending' AND m.next_attempt_at <= ? AND m.id > ? ORDER BY m.id LIMIT ?`,
  );
  const countDue = db.prepare<[string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM webhook_messages INDEXED BY webhook_messages_pending
     WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= ? LIMIT ?) AS due`,
  );
  const nextDue = db.prepare<[], { at: number | null }>(
    `SELECT min(m.next_attempt_at) AS at FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
     WHERE m.status = 'pending' AND e.status = 'active'`,
  );
  const message = db.prepare<[number], MessageRow>('SELECT * FROM webhook_messages WHERE id = ?');
  const insertTest = db.prepare(
    `INSERT INTO webhook_messages (endpoint_id, event_id, body, status, attempts, next_attempt_at, created_at) VALUES (?, NULL, ?, 'pending', 0, ?, ?) RETURNING id`,
  ).pluck();
  const insertAttempt = db.prepare('INSERT INTO webhook_attempts (message_id, started_at, duration_ms, status_code, error) VALUES (?, ?, ?, ?, ?)');
  const endMessage = db.prepare(
    // A delivery no longer pending (its endpoint was disabled while the attempt ran) keeps its end.
    `UPDATE webhook_messages SET attempts = attempts + 1,
       status = CASE WHEN status = 'pending' THEN @status ELSE status END,
       next_attempt_at = CASE WHEN status = 'pending' THEN @nextAt ELSE next_attempt_at END,
       ended_at = CASE WHEN status = 'pending' THEN @endedAt ELSE ended_at END
     WHERE id = @id`,
  );
  const failing = db.prepare('UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ?');
  const healthy = db.prepare('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL');
  const redeliver = db.prepare(`UPDATE webhook_messages SET status = 'pending', next_attempt_at = ?, ended_at = NULL WHERE id = ?`);
  const deliveries = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM webhook_messages WHERE endpoint_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const attemptsOf = db.prepare<[number], { started_at: number; duration_ms: number; status_code: number | null; error: string | null }>(
    'SELECT started_at, duration_ms, status_code, error FROM webhook_attempts WHERE message_id = ? ORDER BY id',
  );
  const pruneMessages = db.prepare(`DELETE FROM webhook_messages WHERE status <> 'pending' AND ended_at < ?`);

  return {
    create(e: { id: string; userId: string; url: string; description: string; eventTypes: string[]; secretEnc: string }, now: number): void {
      insert.run({ ...e, eventTypes: JSON.stringify(e.eventTypes), now });
    },
    get(id: string): EndpointRecord | null {
      const r = byId.get(id);
      return r ? toEndpoint(r) : null;
    },
    list(userId: string): EndpointRecord[] {
      return byUser.all(userId).map(toEndpoint);
    },
    count(userId: string): number {
      return count.get(userId)?.n ?? 0;
    },
    update(id: string, f: { url: string; description: string; eventTypes: string[] }, now: number): void {
      update.run({ id, url: f.url, description: f.description, eventTypes: JSON.stringify(f.eventTypes), now });
    },
    /** The new secret signs from now; the old one signs too until `until`. */
    rotateSecret(id: string, secretEnc: string, until: number, now: number): void {
      rotate.run({ id, secretEnc, until, now });
    },
    enable(id: string, now: number): void {
      enable.run(now, id);
    },
    /** Active -> disabled; its pending deliveries end failed. False when it was not active. */
    disable(id: string, reason: string, now: number): boolean {
      if (disable.run(reason, now, id).changes === 0) return false;
      dropPending.run(now, id);
      return true;
    },
    remove(id: string): void {
      remove.run(id);
    },
    /** The active endpoints with a pending delivery due by `now`, the one with the oldest such delivery first. */
    dueEndpoints(now: number): EndpointRecord[] {
      return dueEndpoints.all(now).map(toEndpoint);
    },
    /** An endpoint's pending deliveries due by `now` with an id above `afterId` and their events, oldest (lowest id) first, at most `limit`. */
    dueFor(endpointId: string, now: number, afterId: number, limit: number): DueMessage[] {
      return dueFor.all(endpointId, now, afterId, limit).map(toDue);
    },
    /** How many of an endpoint's pending deliveries are due by `now`, counted up to `limit`. */
    countDue(endpointId: string, now: number, limit: number): number {
      return countDue.get(endpointId, now, limit)?.n ?? 0;
    },
    /** When the next pending delivery is due (null: none). */
    nextDueAt(): number | null {
      return nextDue.get()?.at ?? null;
    },
    message(id: number): MessageRecord | null {
      const r = message.get(id);
      return r ? toMessage(r) : null;
    },
    enqueueTest(endpointId: string, body: string, now: number): number {
      return Number(insertTest.get(endpointId, body, now, now));
    },
    /** Records an attempt and what follows; keeps the endpoint's failing_since. Call inside a transaction. */
    recordAttempt(m: MessageRecord, a: AttemptRecord, end: AttemptEnd): void {
      insertAttempt.run(m.id, a.startedAt, a.durationMs, a.statusCode, a.error);
      const endedAt = a.startedAt + a.durationMs;
      if (end.kind === 'delivered') {
        endMessage.run({ id: m.id, status: 'delivered', nextAt: null, endedAt });
        healthy.run(m.endpointId);
      } else {
        endMessage.run({ id: m.id, status: end.kind === 'retry' ? 'pending' : 'failed', nextAt: end.kind === 'retry' ? end.nextAt : null, endedAt: end.kind === 'retry' ? null : endedAt });
        failing.run(a.startedAt, m.endpointId);
      }
    },
    /** Sends a delivery again (same id, so the same webhook-id). */
    redeliver(id: number, now: number): void {
      redeliver.run(now, id);
    },
    /** The endpoint's deliveries, newest first, with their attempts. */
    deliveries(endpointId: string, limit: number, beforeId = Number.MAX_SAFE_INTEGER): (MessageRecord & { attemptList: AttemptRecord[] })[] {
      return deliveries.all(endpointId, beforeId, limit).map((r) => ({
        ...toMessage(r),
        attemptList: attemptsOf.all(r.id).map((a) => ({ startedAt: a.started_at, durationMs: a.duration_ms, statusCode: a.status_code, error: a.error })),
      }));
    },
    prune(before: number): number {
      return pruneMessages.run(before).changes;
    },
  };
}
