import type { Platform, TargetReplies, TargetStatus } from '@socialpub/core';
import type { ClaimedPostRow, ClaimedTarget, ClaimedTargetRow } from './claimed-target';
import type { DB } from './database';
import { dialectOf, isolatedWrites } from './postgres/pg-database';
import { createAttemptFinish } from './attempt-finish';
import { toClaimed } from './claimed-target';
import { createPlatformPausesRepository } from './platform-pauses';
import { createTargetClaims } from './target-claims';

export type { AttemptEnd, FinishRequest, StoredError } from './attempt-finish';
export type { ClaimedTarget } from './claimed-target';
export type { ClaimOutcome, ClaimRefusal } from './target-claims';

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
  /** The account it goes out through (null: a target accepted before migration 200). */
  connectionId: string | null;
  fireAt: number;
}

interface FireRow {
  id: string;
  status: TargetStatus;
  platform: Platform;
  user_id: string;
  connection_id: string | null;
  fire_at: number;
}

/** One checkpoint save of `saveCheckpoints`: as `saveCheckpoint`'s arguments. */
export interface CheckpointSave {
  id: string;
  owner: string;
  patch: Record<string, unknown>;
  now: number;
  leaseUntil: number;
  followUps?: TargetReplies;
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
  const fireStates = db.prepare<[string], FireRow>(
    `SELECT id, status, platform, user_id, connection_id, ${FIRE_AT} AS fire_at FROM targets WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const fireState = db.prepare<[string], FireRow>(
    `SELECT id, status, platform, user_id, connection_id, ${FIRE_AT} AS fire_at FROM targets WHERE id = ?`,
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

  const withPost = `SELECT t.id, t.job_id, t.user_id, t.platform, t.connection_id, t.account_key, t.type, t.due_at, t.attempts, t.attempt_started_at, t.checkpoint, t.follow_ups,
            j.caption, j.platform_captions, j.media_urls, j.platform_options, j.follow_ups AS job_follow_ups
       FROM targets t JOIN jobs j ON j.id = t.job_id WHERE t.id = ?`;
  const claimedRow = db.prepare<[string], ClaimedTargetRow & ClaimedPostRow>(withPost);
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
  // The saves of a moment in one statement on PostgreSQL (one round trip instead of one a
  // save); on SQLite a statement is a few µs in-process, and the single-row form stays.
  const saveCheckpoints =
    dialectOf(db) === 'postgres'
      ? db.prepare<[string], { id: string }>(
          `UPDATE targets SET checkpoint = json_patch(targets.checkpoint, c.patch), follow_ups = json_patch(targets.follow_ups, c.follow_ups),
             lease_until = c.lease_until, updated_at = c.now
            FROM (SELECT value->>'id' AS id, value->>'owner' AS owner, value->>'patch' AS patch, value->>'followUps' AS follow_ups,
                         CAST(value->>'leaseUntil' AS BIGINT) AS lease_until, CAST(value->>'now' AS BIGINT) AS now FROM json_each(?)) c
           WHERE targets.id = c.id AND targets.status = 'publishing' AND targets.lease_owner = c.owner
           RETURNING targets.id`,
        )
      : null;
  const readCheckpoint = db.prepare<[string], { checkpoint: string }>('SELECT checkpoint FROM targets WHERE id = ?');
  // Made ahead of the due time (publisher/preparer.ts): only while the target is still
  // scheduled, and without touching updated_at (nothing the user sees changes).
  const scheduledRow = db.prepare<[string], ClaimedTargetRow & ClaimedPostRow>(`${withPost} AND t.status = 'scheduled'`);
  const savePreparation = db.prepare("UPDATE targets SET checkpoint = json_patch(checkpoint, @patch) WHERE id = @id AND status = 'scheduled'");
  const renew = db.prepare(
    "UPDATE targets SET lease_until = @leaseUntil WHERE id = @id AND status = 'publishing' AND lease_owner = @owner",
  );
  const defer = db.prepare(
    `UPDATE targets SET next_attempt_at = @until, updated_at = @now
      WHERE id = @id AND status = 'scheduled' AND ${FIRE_AT} < @until`,
  );

  const retryFailures = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM attempts WHERE target_id = ? AND outcome = 'retry' AND (error_code IS NULL OR error_code <> 'rate_limited')",
  );
  const connectionStatus = db.prepare<[string, string], { status: 'active' | 'expired'; status_reason: string | null }>(
    'SELECT status, status_reason FROM connections WHERE user_id = ? AND platform = ? AND is_default = 1',
  );
  const accountStatus = db.prepare<[string, string, string], { status: 'active' | 'expired'; status_reason: string | null }>(
    'SELECT status, status_reason FROM connections WHERE id = ? AND user_id = ? AND platform = ?',
  );
  const labelStatus = db.prepare<[string, string, string], { status: 'active' | 'expired'; status_reason: string | null }>(
    'SELECT status, status_reason FROM connections WHERE user_id = ? AND platform = ? AND label = ?',
  );
  const counts = db.prepare<[], { status: TargetStatus; n: number }>('SELECT status, count(*) AS n FROM targets GROUP BY status');
  const pauses = createPlatformPausesRepository(db);

  const deferAll = db.transaction((ids: readonly string[], until: number, now: number): string[] =>
    ids.filter((id) => defer.run({ id, until, now }).changes === 1),
  );

  const claims = createTargetClaims(db);
  const ends = createAttemptFinish(db);

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
      const add = (r: FireRow) => out.push({ id: r.id, status: r.status, platform: r.platform, userId: r.user_id, connectionId: r.connection_id, fireAt: r.fire_at });
      // One id (the publisher's dispatch of each due target) is a plain lookup, without the JSON array.
      if (ids.length === 1) {
        const r = fireState.get(ids[0] as string);
        if (r) add(r);
        return out;
      }
      for (let i = 0; i < ids.length; i += 500) for (const r of fireStates.all(JSON.stringify(ids.slice(i, i + 500)))) add(r);
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
    /** The compare-and-set claims of due targets, many in one statement (store/target-claims.ts). */
    claimMany: claims.claimMany,
    /**
     * Takes over a `publishing` target for reconciliation: its lease has run out, or its
     * owner is known dead. Returns what an adapter needs, or null when it is not ours to take.
     * (The caller makes sure it is not running the target itself.)
     */
    takeOver(id: string, now: number, owner: string, leaseUntil: number, deadOwner: string | null): ClaimedTarget | null {
      return db
        .transaction(() => {
          if (takeOver.run({ id, now, owner, leaseUntil, deadOwner }).changes !== 1) return null;
          const row = claimedRow.get(id) as ClaimedTargetRow & ClaimedPostRow;
          return toClaimed(row, row);
        })
        .immediate();
    },
    /**
     * Merges `patch` into the checkpoint (and `followUps` into the target's replies, its follow_ups column, in the
     * same statement) and extends the lease; false when the lease is no longer ours.
     */
    saveCheckpoint(id: string, owner: string, patch: Record<string, unknown>, now: number, leaseUntil: number, followUps: TargetReplies = {}): boolean {
      return saveCheckpoint.run({ id, owner, patch: JSON.stringify(patch), followUps: JSON.stringify(followUps), now, leaseUntil }).changes === 1;
    },
    /**
     * `saveCheckpoint` of many targets at once (the saves asked for in one turn: one
     * statement on PostgreSQL); for each, in order, false when the lease is no longer ours.
     */
    saveCheckpoints(saves: readonly CheckpointSave[]): boolean[] {
      const ids = new Set(saves.map((c) => c.id));
      // One target twice would be one row matched twice: the single-row form then, in order.
      if (!saveCheckpoints || ids.size !== saves.length || saves.length === 1) {
        return saves.map((c) => saveCheckpoint.run({ id: c.id, owner: c.owner, patch: JSON.stringify(c.patch), followUps: JSON.stringify(c.followUps ?? {}), now: c.now, leaseUntil: c.leaseUntil }).changes === 1);
      }
      const rows = saves.map((c) => ({ id: c.id, owner: c.owner, patch: JSON.stringify(c.patch), followUps: JSON.stringify(c.followUps ?? {}), now: c.now, leaseUntil: c.leaseUntil }));
      const saved = new Set(saveCheckpoints.all(JSON.stringify(rows)).map((r) => r.id));
      return saves.map((c) => saved.has(c.id));
    },
    /**
     * A scheduled target as an adapter would publish it (its caption, options and checkpoint)
     * for making ahead of its due time what publishes nothing; null when it is not scheduled.
     */
    preparationOf(id: string): ClaimedTarget | null {
      const row = scheduledRow.get(id);
      return row ? toClaimed(row, row) : null;
    },
    /** Merges `patch` into a scheduled target's checkpoint; false when it is no longer scheduled (claimed, edited away, cancelled). */
    savePreparation(id: string, patch: Record<string, unknown>): boolean {
      return savePreparation.run({ id, patch: JSON.stringify(patch) }).changes === 1;
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
    /** One write inside `transaction` whose failure undoes only itself (postgres/pg-database.ts `isolatedWrites`). */
    isolated: isolatedWrites(db),
    /** Ends the attempt this owner holds; false when the lease was lost (nothing written). */
    finish: ends.finish,
    /** Attempt ends of many targets in one transaction, the published ones in one statement (store/attempt-finish.ts). */
    finishMany: ends.finishMany,
    /** Retryable failures so far (a platform's rate limit does not count). */
    retryFailures(id: string): number {
      return retryFailures.get(id)?.n ?? 0;
    },
    /** The user's connection to `platform`: missing, active or expired. */
    /**
     * The state of the account a target names: its connection (missing once removed: a
     * target never goes out through another account), else the one labelled `label`,
     * else the network's default.
     */
    connectionState(userId: string, platform: Platform, connectionId: string | null = null, label: string | null = null): { state: 'missing' | 'active' | 'expired'; reason: string | null } {
      const r =
        connectionId !== null ? accountStatus.get(connectionId, userId, platform) : label !== null ? labelStatus.get(userId, platform, label) : connectionStatus.get(userId, platform);
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
