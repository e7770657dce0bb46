import type { TargetErrorCode } from '@socialpub/core';
import type { DB } from './database';
import { endJobLocks } from './job-locks';
import { createOutboxWriter, type NewEvent } from './outbox';
import { createJobFinishes, targetEvent, targetEventColumns, type TargetEventRow } from './state-events';

/** The end of an attempt, written together with its attempts row. */
export type AttemptEnd =
  | { status: 'published'; postId: string; postUrl: string | null; publishedAt: number; outcome: 'published' | 'reconciled_published' }
  | {
      status: 'scheduled';
      nextAttemptAt: number;
      outcome: 'retry' | 'reconciled_not_published';
      /** What attempts.error_code records: rate_limited for a platform's limit, else the target error code. */
      attemptErrorCode: string | null;
      error: StoredError | null;
    }
  | { status: 'failed'; error: StoredError }
  | { status: 'needs_review'; error: StoredError };

export interface StoredError {
  code: TargetErrorCode;
  message: string;
  platformCode: string | null;
}

/** One attempt end to write: the target, its lease owner, when, how, and a detail for the attempts row. */
export interface FinishRequest {
  id: string;
  owner: string;
  now: number;
  end: AttemptEnd;
  detail: string | null;
}

interface AttemptColumns {
  outcome: string;
  code: string | null;
  message: string | null;
  platformCode: string | null;
}

/**
 * Attempt ends: the target's new state (compare-and-set on its lease) and its attempts row
 * closed, together, with their events (target.published / retrying / failed / needs_review,
 * and post.finished when the job settled: store/state-events.ts). Ends asked for at one
 * moment are written together (`finishMany`): the targets that were published — nearly all
 * of a burst — in one UPDATE, whose fixed cost (the targets' job-status triggers) is paid
 * once for the lot, and all their events in one INSERT.
 */
export function createAttemptFinish(db: DB) {
  const RETURNING = `RETURNING ${targetEventColumns()}`;
  const endPublished = db.prepare<[Record<string, unknown>], TargetEventRow>(
    `UPDATE targets SET status = 'published', post_id = @postId, post_url = @postUrl, published_at = @publishedAt,
       lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL,
       error_code = NULL, error_message = NULL, platform_code = NULL, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner ${RETURNING}`,
  );
  // The same for many: one row of the JSON array per target. `+status` keeps SQLite on the primary key.
  const endPublishedMany = db.prepare<[string], TargetEventRow>(
    `UPDATE targets SET status = 'published', post_id = j.value->>'postId', post_url = j.value->>'postUrl',
       published_at = CAST(j.value->>'publishedAt' AS BIGINT), lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL,
       error_code = NULL, error_message = NULL, platform_code = NULL, updated_at = CAST(j.value->>'now' AS BIGINT)
     FROM json_each(?) AS j
     WHERE targets.id = j.value->>'id' AND +targets.status = 'publishing' AND targets.lease_owner = j.value->>'owner'
     RETURNING ${targetEventColumns('targets.')}`,
  );
  // Their attempts rows closed the same way: each target's open attempt (the latest, as closeAttempt).
  const closePublishedMany = db.prepare<[string], { target_id: string }>(
    `UPDATE attempts SET ended_at = CAST(j.value->>'now' AS BIGINT), outcome = j.value->>'outcome', error_code = NULL, error_message = NULL,
       platform_code = NULL, detail = j.value->>'detail'
     FROM json_each(?) AS j
     WHERE attempts.target_id = j.value->>'id' AND attempts.ended_at IS NULL
       AND attempts.id = (SELECT max(a.id) FROM attempts a WHERE a.target_id = attempts.target_id AND a.ended_at IS NULL)
     RETURNING attempts.target_id`,
  );
  const endScheduled = db.prepare<[Record<string, unknown>], TargetEventRow>(
    `UPDATE targets SET status = 'scheduled', next_attempt_at = @nextAttemptAt, lease_until = NULL, lease_owner = NULL,
       error_code = @code, error_message = @message, platform_code = @platformCode, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner ${RETURNING}`,
  );
  const endWithError = db.prepare<[Record<string, unknown>], TargetEventRow>(
    `UPDATE targets SET status = @status, lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL,
       error_code = @code, error_message = @message, platform_code = @platformCode, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner ${RETURNING}`,
  );
  const outbox = createOutboxWriter(db);
  const finishes = createJobFinishes(db);
  const jobLocks = endJobLocks(db);
  const closeAttempt = db.prepare(
    `UPDATE attempts SET ended_at = @now, outcome = @outcome, error_code = @code, error_message = @message,
       platform_code = @platformCode, detail = @detail
     WHERE id = (SELECT max(id) FROM attempts WHERE target_id = @id AND ended_at IS NULL)`,
  );
  const insertClosedAttempt = db.prepare(
    `INSERT INTO attempts (target_id, number, started_at, ended_at, outcome, error_code, error_message, platform_code, detail)
     SELECT @id, attempts, COALESCE(attempt_started_at, @now), @now, @outcome, @code, @message, @platformCode, @detail
       FROM targets WHERE id = @id`,
  );

  /** Closes the open attempts row of a target whose end was written (or records the attempt, if none is open). */
  function closeAttemptOf(r: FinishRequest, attempt: AttemptColumns): void {
    const params = { id: r.id, now: r.now, detail: r.detail, ...attempt };
    if (closeAttempt.run(params).changes === 0) insertClosedAttempt.run(params);
  }

  /** The target's new state, if `owner` still holds its lease: the attempts row's outcome and error, and the target's event. */
  function writeEnd({ id, owner, now, end }: FinishRequest): { attempt: AttemptColumns; event: NewEvent } | null {
    let row: TargetEventRow | undefined;
    switch (end.status) {
      case 'published':
        row = endPublished.get({ id, owner, now, postId: end.postId, postUrl: end.postUrl, publishedAt: end.publishedAt });
        return row ? { attempt: publishedAttempt(end.outcome), event: targetEvent('published', row) } : null;
      case 'scheduled':
        row = endScheduled.get({
          id,
          owner,
          now,
          nextAttemptAt: end.nextAttemptAt,
          code: end.error?.code ?? null,
          message: end.error?.message ?? null,
          platformCode: end.error?.platformCode ?? null,
        });
        return row
          ? {
              attempt: { outcome: end.outcome, code: end.attemptErrorCode, message: end.error?.message ?? null, platformCode: end.error?.platformCode ?? null },
              event: targetEvent('retrying', row, { rateLimited: end.attemptErrorCode === 'rate_limited' }),
            }
          : null;
      case 'failed':
      case 'needs_review':
        row = endWithError.get({
          id,
          owner,
          now,
          status: end.status,
          code: end.error.code,
          message: end.error.message,
          platformCode: end.error.platformCode,
        });
        return row
          ? { attempt: { outcome: end.status, code: end.error.code, message: end.error.message, platformCode: end.error.platformCode }, event: targetEvent(end.status, row) }
          : null;
    }
  }

  /** The events of the ends written, and post.finished of the jobs they settled (only a published or failed end can). */
  function appendEvents(events: readonly NewEvent[]): void {
    const settling = events.filter((e) => e.type === 'target.published' || e.type === 'target.failed').map((e) => e.jobId as string);
    outbox.appendMany(settling.length === 0 ? events : finishes.withFinishes(events, settling));
  }

  const finish = db.transaction((r: FinishRequest): boolean => {
    const written = writeEnd(r);
    if (!written) return false;
    closeAttemptOf(r, written.attempt);
    appendEvents([written.event]);
    return true;
  });

  const finishMany = db.transaction((requests: readonly FinishRequest[]): boolean[] => {
    // Their jobs' rows in id order first (PostgreSQL: store/job-locks.ts).
    if (jobLocks && requests.length > 1) jobLocks(JSON.stringify([...new Set(requests.map((r) => r.id))]));
    // The published ends go in one statement, each id once; any other end (and a second
    // request for an id) is written on its own afterwards, as `finish` would.
    const batched = new Map<string, FinishRequest>();
    for (const r of requests) if (r.end.status === 'published' && !batched.has(r.id)) batched.set(r.id, r);
    const written = new Set<string>();
    const events: NewEvent[] = [];
    if (batched.size > 1) {
      const rows = [...batched.values()].map(({ id, owner, now, end }) =>
        end.status === 'published' ? { id, owner, now, postId: end.postId, postUrl: end.postUrl, publishedAt: end.publishedAt } : null,
      );
      for (const r of endPublishedMany.all(JSON.stringify(rows))) {
        written.add(r.id);
        events.push(targetEvent('published', r));
      }
      const closing = [...written].map((id) => {
        const { now, end, detail } = batched.get(id) as FinishRequest;
        return { id, now, detail, outcome: end.status === 'published' ? end.outcome : null };
      });
      const closed = new Set(closePublishedMany.all(JSON.stringify(closing)).map((r) => r.target_id));
      // No open attempt (not expected after a claim): the attempt is recorded closed, as closeAttemptOf does.
      for (const c of closing) if (!closed.has(c.id)) insertClosedAttempt.run({ ...c, code: null, message: null, platformCode: null });
    } else {
      batched.clear();
    }
    const out = requests.map((r) => {
      if (batched.get(r.id) === r) return written.has(r.id);
      const end = writeEnd(r);
      if (!end) return false;
      closeAttemptOf(r, end.attempt);
      events.push(end.event);
      return true;
    });
    appendEvents(events);
    return out;
  });

  return {
    /** Ends the attempt this owner holds; false when the lease was lost (nothing written). */
    finish(id: string, owner: string, now: number, end: AttemptEnd, detail: string | null = null): boolean {
      return finish.immediate({ id, owner, now, end, detail });
    },
    /**
     * `finish` for many targets in one transaction (a savepoint when one is open): for each
     * request in order, true when its end was written, false when its lease was lost.
     */
    finishMany(requests: readonly FinishRequest[]): boolean[] {
      return requests.length === 0 ? [] : finishMany.immediate(requests);
    },
  };
}

function publishedAttempt(outcome: 'published' | 'reconciled_published'): AttemptColumns {
  return { outcome, code: null, message: null, platformCode: null };
}
