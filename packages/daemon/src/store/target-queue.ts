import { firstCommentFor, threadFor, type ContentType, type JobFollowUps, type Platform, type TargetErrorCode, type TargetFollowUps, type TargetStatus, type ThreadPart } from '@socialpub/core';
import type { DB } from './database';
import { createPlatformPausesRepository } from './platform-pauses';

/**
 * When a scheduled target fires: its backoff time if it has one, else its due time. Must
 * match the expression of the index in migration 010 exactly, or SQLite ignores the index.
 */
const FIRE_AT = 'COALESCE(next_attempt_at, due_at)';

/** Sorts after every id (ids are ASCII), so (t, MAX_ID) means "everything firing by t". */
export const MAX_ID = '\uffff';

export interface FireEntry {
  id: string;
  fireAt: number;
}

export interface TargetFireState {
  id: string;
  status: TargetStatus;
  platform: Platform;
  /** The target's user: with the platform, the connection it goes out through. */
  userId: string;
  fireAt: number;
}

/** A target this process now holds the lease on, with what an adapter needs to publish it. */
export interface ClaimedTarget {
  id: string;
  jobId: string;
  userId: string;
  platform: Platform;
  type: ContentType;
  dueAt: number;
  /** The attempt number this claim opened (1 on the first). */
  attempt: number;
  attemptStartedAt: number;
  checkpoint: Record<string, unknown>;
  caption: string;
  mediaUrls: string[];
  /** The job's platform_options entry for this target's platform ({} when none). */
  options: Record<string, unknown>;
  /** The follow-up parts to publish as a reply chain after the post ([] when none). */
  thread: ThreadPart[];
  /** The first comment to post under the post, or null. */
  firstComment: string | null;
  /** What became of the follow-ups so far (the parts out, the comment). */
  followUps: TargetFollowUps;
}

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

interface ClaimRow {
  id: string;
  job_id: string;
  user_id: string;
  platform: Platform;
  type: ContentType;
  due_at: number;
  attempts: number;
  attempt_started_at: number;
  checkpoint: string;
  caption: string;
  platform_captions: string;
  media_urls: string;
  platform_options: string;
  job_follow_ups: string;
  follow_ups: string;
}

const toClaimed = (r: ClaimRow): ClaimedTarget => {
  const captions = JSON.parse(r.platform_captions) as Record<string, string | undefined>;
  return {
    id: r.id,
    jobId: r.job_id,
    userId: r.user_id,
    platform: r.platform,
    type: r.type,
    dueAt: r.due_at,
    attempt: r.attempts,
    attemptStartedAt: r.attempt_started_at,
    checkpoint: JSON.parse(r.checkpoint) as Record<string, unknown>,
    caption: captions[r.platform] ?? r.caption,
    mediaUrls: JSON.parse(r.media_urls) as string[],
    options: (JSON.parse(r.platform_options) as Record<string, Record<string, unknown> | undefined>)[r.platform] ?? {},
    ...followUpsOf(r),
  };
};

function followUpsOf(r: ClaimRow): Pick<ClaimedTarget, 'thread' | 'firstComment' | 'followUps'> {
  const asked = JSON.parse(r.job_follow_ups) as JobFollowUps;
  return { thread: threadFor(asked, r.platform), firstComment: firstCommentFor(asked, r.platform, r.type), followUps: JSON.parse(r.follow_ups) as TargetFollowUps };
}

export type TargetQueue = ReturnType<typeof createTargetQueue>;

/**
 * The scheduler's and publisher's SQL over targets and attempts: scans in fire order,
 * claims, checkpoints, leases and outcome writes. Every state change is a compare-and-set
 * on (status, lease_owner), so a target is dispatched once however often it is queued,
 * and a process that lost its lease cannot overwrite what the new holder wrote.
 */
export function createTargetQueue(db: DB) {
  // The lower bound is spelt out (not as a row value) so SQLite seeks to it in the index
  // instead of scanning from the start of the range.
  const scanAfter = db.prepare<[{ t: number; id: string; until: number; limit: number }], { id: string; fire_at: number }>(
    `SELECT id, ${FIRE_AT} AS fire_at FROM targets INDEXED BY targets_status_fire
      WHERE status = 'scheduled' AND ${FIRE_AT} >= @t AND (${FIRE_AT} > @t OR id > @id) AND ${FIRE_AT} <= @until
      ORDER BY ${FIRE_AT}, id LIMIT @limit`,
  );
  const scanFrom = db.prepare<[{ until: number; limit: number }], { id: string; fire_at: number }>(
    `SELECT id, ${FIRE_AT} AS fire_at FROM targets INDEXED BY targets_status_fire
      WHERE status = 'scheduled' AND ${FIRE_AT} <= @until ORDER BY ${FIRE_AT}, id LIMIT @limit`,
  );
  const fireStates = db.prepare<[string], { id: string; status: TargetStatus; platform: Platform; user_id: string; fire_at: number }>(
    `SELECT id, status, platform, user_id, ${FIRE_AT} AS fire_at FROM targets WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const expiredLeases = db.prepare<[number, number], { id: string }>(
    `SELECT id FROM targets INDEXED BY targets_status_lease
      WHERE status = 'publishing' AND (lease_until IS NULL OR lease_until < ?) ORDER BY lease_until LIMIT ?`,
  );
  const publishingOwners = db.prepare<[], { owner: string | null }>(
    "SELECT DISTINCT lease_owner AS owner FROM targets WHERE status = 'publishing'",
  );
  const publishingOf = db.prepare<[string], { id: string }>(
    "SELECT id FROM targets WHERE status = 'publishing' AND lease_owner = ? ORDER BY attempt_started_at, id",
  );

  const claimUpdate = db.prepare(
    `UPDATE targets SET status = 'publishing', lease_until = @leaseUntil, lease_owner = @owner, attempts = attempts + 1,
       attempt_started_at = @now, updated_at = @now
     WHERE id = @id AND status = 'scheduled' AND ${FIRE_AT} <= @now`,
  );
  const claimedRow = db.prepare<[string], ClaimRow>(
    `SELECT t.id, t.job_id, t.user_id, t.platform, t.type, t.due_at, t.attempts, t.attempt_started_at, t.checkpoint, t.follow_ups,
            j.caption, j.platform_captions, j.media_urls, j.platform_options, j.follow_ups AS job_follow_ups
       FROM targets t JOIN jobs j ON j.id = t.job_id WHERE t.id = ?`,
  );
  const openAttempt = db.prepare('INSERT INTO attempts (target_id, number, started_at) VALUES (?, ?, ?)');
  const takeOver = db.prepare(
    `UPDATE targets SET lease_until = @leaseUntil, lease_owner = @owner, updated_at = @now
      WHERE id = @id AND status = 'publishing'
        AND (lease_until IS NULL OR lease_until < @now OR lease_owner IS @deadOwner)`,
  );
  const saveCheckpoint = db.prepare(
    `UPDATE targets SET checkpoint = json_patch(checkpoint, @patch), follow_ups = json_patch(follow_ups, @followUps),
       lease_until = @leaseUntil, updated_at = @now
      WHERE id = @id AND status = 'publishing' AND lease_owner = @owner`,
  );
  const readCheckpoint = db.prepare<[string], { checkpoint: string }>('SELECT checkpoint FROM targets WHERE id = ?');
  const renew = db.prepare(
    "UPDATE targets SET lease_until = @leaseUntil WHERE id = @id AND status = 'publishing' AND lease_owner = @owner",
  );
  const defer = db.prepare(
    `UPDATE targets SET next_attempt_at = @until, updated_at = @now
      WHERE id = @id AND status = 'scheduled' AND ${FIRE_AT} < @until`,
  );

  const endPublished = db.prepare(
    `UPDATE targets SET status = 'published', post_id = @postId, post_url = @postUrl, published_at = @publishedAt,
       lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL,
       error_code = NULL, error_message = NULL, platform_code = NULL, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner`,
  );
  const endScheduled = db.prepare(
    `UPDATE targets SET status = 'scheduled', next_attempt_at = @nextAttemptAt, lease_until = NULL, lease_owner = NULL,
       error_code = @code, error_message = @message, platform_code = @platformCode, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner`,
  );
  const endWithError = db.prepare(
    `UPDATE targets SET status = @status, lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL,
       error_code = @code, error_message = @message, platform_code = @platformCode, updated_at = @now
     WHERE id = @id AND status = 'publishing' AND lease_owner = @owner`,
  );
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
  const retryFailures = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM attempts WHERE target_id = ? AND outcome = 'retry' AND (error_code IS NULL OR error_code <> 'rate_limited')",
  );
  const connectionStatus = db.prepare<[string, string], { status: 'active' | 'expired'; status_reason: string | null }>(
    'SELECT status, status_reason FROM connections WHERE user_id = ? AND platform = ?',
  );
  const counts = db.prepare<[], { status: TargetStatus; n: number }>('SELECT status, count(*) AS n FROM targets GROUP BY status');
  const pauses = createPlatformPausesRepository(db);

  const deferAll = db.transaction((ids: readonly string[], until: number, now: number): string[] =>
    ids.filter((id) => defer.run({ id, until, now }).changes === 1),
  );

  const claim = db.transaction((id: string, now: number, owner: string, leaseUntil: number): ClaimedTarget | null => {
    if (claimUpdate.run({ id, now, owner, leaseUntil }).changes !== 1) return null;
    const row = claimedRow.get(id) as ClaimRow;
    openAttempt.run(id, row.attempts, now);
    return toClaimed(row);
  });

  const finish = db.transaction((id: string, owner: string, now: number, end: AttemptEnd, detail: string | null): boolean => {
    let changed: number;
    let attempt: { outcome: string; code: string | null; message: string | null; platformCode: string | null };
    switch (end.status) {
      case 'published':
        changed = endPublished.run({ id, owner, now, postId: end.postId, postUrl: end.postUrl, publishedAt: end.publishedAt }).changes;
        attempt = { outcome: end.outcome, code: null, message: null, platformCode: null };
        break;
      case 'scheduled':
        changed = endScheduled.run({
          id,
          owner,
          now,
          nextAttemptAt: end.nextAttemptAt,
          code: end.error?.code ?? null,
          message: end.error?.message ?? null,
          platformCode: end.error?.platformCode ?? null,
        }).changes;
        attempt = {
          outcome: end.outcome,
          code: end.attemptErrorCode,
          message: end.error?.message ?? null,
          platformCode: end.error?.platformCode ?? null,
        };
        break;
      case 'failed':
      case 'needs_review':
        changed = endWithError.run({
          id,
          owner,
          now,
          status: end.status,
          code: end.error.code,
          message: end.error.message,
          platformCode: end.error.platformCode,
        }).changes;
        attempt = { outcome: end.status, code: end.error.code, message: end.error.message, platformCode: end.error.platformCode };
        break;
    }
    if (changed !== 1) return false;
    const params = { id, now, detail, ...attempt };
    if (closeAttempt.run(params).changes === 0) insertClosedAttempt.run(params);
    return true;
  });

  return {
    /**
     * Scheduled targets firing after (afterFire, afterId) and by `until`, in fire order.
     * Pass afterFire null to start from the beginning (overdue ones included).
     */
    scan(afterFire: number | null, afterId: string, until: number, limit: number): FireEntry[] {
      const rows = afterFire === null ? scanFrom.all({ until, limit }) : scanAfter.all({ t: afterFire, id: afterId, until, limit });
      return rows.map((r) => ({ id: r.id, fireAt: r.fire_at }));
    },
    /** Status, platform and fire time of the given targets (missing ids are left out). */
    fireStates(ids: readonly string[]): TargetFireState[] {
      const out: TargetFireState[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        for (const r of fireStates.all(JSON.stringify(ids.slice(i, i + 500)))) {
          out.push({ id: r.id, status: r.status, platform: r.platform, userId: r.user_id, fireAt: r.fire_at });
        }
      }
      return out;
    },
    /** Targets in `publishing` whose lease ran out by `now`, oldest lease first. */
    expiredLeases(now: number, limit: number): string[] {
      return expiredLeases.all(now, limit).map((r) => r.id);
    },
    /** The distinct lease owners of targets in `publishing` (to spot dead processes at start). */
    publishingOwners(): (string | null)[] {
      return publishingOwners.all().map((r) => r.owner);
    },
    publishingOf(owner: string): string[] {
      return publishingOf.all(owner).map((r) => r.id);
    },
    /**
     * The compare-and-set claim: `scheduled` -> `publishing` with a lease, only when the
     * target is due by `now`, and its attempts row opened, in one immediate transaction.
     */
    claim(id: string, now: number, owner: string, leaseUntil: number): ClaimedTarget | null {
      return claim.immediate(id, now, owner, leaseUntil);
    },
    /**
     * Takes over a `publishing` target for reconciliation: its lease has run out, or its
     * owner is known dead. Returns what an adapter needs, or null when it is not ours to take.
     * (The caller makes sure it is not running the target itself.)
     */
    takeOver(id: string, now: number, owner: string, leaseUntil: number, deadOwner: string | null): ClaimedTarget | null {
      return db
        .transaction(() => {
          if (takeOver.run({ id, now, owner, leaseUntil, deadOwner }).changes !== 1) return null;
          return toClaimed(claimedRow.get(id) as ClaimRow);
        })
        .immediate();
    },
    /**
     * Merges `patch` into the checkpoint (and `followUps` into the target's follow-ups, in the
     * same statement) and extends the lease; false when the lease is no longer ours.
     */
    saveCheckpoint(id: string, owner: string, patch: Record<string, unknown>, now: number, leaseUntil: number, followUps: TargetFollowUps = {}): boolean {
      return saveCheckpoint.run({ id, owner, patch: JSON.stringify(patch), followUps: JSON.stringify(followUps), now, leaseUntil }).changes === 1;
    },
    checkpointOf(id: string): Record<string, unknown> {
      const r = readCheckpoint.get(id);
      return r ? (JSON.parse(r.checkpoint) as Record<string, unknown>) : {};
    },
    renewLease(id: string, owner: string, leaseUntil: number): boolean {
      return renew.run({ id, owner, leaseUntil }).changes === 1;
    },
    /** Holds a scheduled target back until `until` (its connection or platform is paused); false when it is no longer scheduled. */
    defer(id: string, until: number, now: number): boolean {
      return defer.run({ id, until, now }).changes === 1;
    },
    /** `defer` for many targets in one transaction (one commit); returns the ids it held back. */
    deferAll(ids: readonly string[], until: number, now: number): string[] {
      return ids.length === 0 ? [] : deferAll.immediate(ids, until, now);
    },
    /** Pauses from the platforms' rate limits (kept across restarts). */
    pauses,
    /** Runs `fn` in one immediate transaction (the publisher's batched writes). */
    transaction(fn: () => void): void {
      db.transaction(fn).immediate();
    },
    /** Ends the attempt this owner holds; false when the lease was lost (nothing written). */
    finish(id: string, owner: string, now: number, end: AttemptEnd, detail: string | null = null): boolean {
      return finish.immediate(id, owner, now, end, detail);
    },
    /** Retryable failures so far (a platform's rate limit does not count). */
    retryFailures(id: string): number {
      return retryFailures.get(id)?.n ?? 0;
    },
    /** The user's connection to `platform`: missing, active or expired. */
    connectionState(userId: string, platform: Platform): { state: 'missing' | 'active' | 'expired'; reason: string | null } {
      const r = connectionStatus.get(userId, platform);
      if (!r) return { state: 'missing', reason: null };
      return { state: r.status, reason: r.status_reason };
    },
    /** Targets per status (for /healthz). */
    countByStatus(): Partial<Record<TargetStatus, number>> {
      const out: Partial<Record<TargetStatus, number>> = {};
      for (const r of counts.all()) out[r.status] = r.n;
      return out;
    },
  };
}
