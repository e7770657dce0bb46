import type { ClaimedPostRow, ClaimedTarget, ClaimedTargetRow } from './claimed-target';
import type { DB } from './database';
import { dialectOf, type PostgresDatabase } from './postgres/pg-database';
import { createConnectionStates } from './connection-states';
import { CLAIMED_JOB_COLUMNS, CLAIMED_TARGET_COLUMNS, toClaimed } from './claimed-target';
import { createOutboxWriter } from './outbox';
import { claimJobLocks } from './job-locks';
import { connectionLabelColumn, publishingEvent } from './state-events';

/**
 * Why a due target was not claimed although it was scheduled and due (PostgreSQL, several
 * daemons): `at_cap`, its connection has as many targets in flight as the cap allows, on
 * this daemon and the others together; `paused`, a platform's limit another daemon recorded
 * holds its connection (or its platform) now. Either way it stays `scheduled`.
 */
export type ClaimRefusal = 'at_cap' | 'paused';

/** What a claim of one id gives: the claimed target, null (not scheduled, not due, taken), or why it must wait. */
export type ClaimOutcome = ClaimedTarget | null | ClaimRefusal;

/** The advisory lock class of the connection lanes' claims (the keys of the migration lock and leadership are single bigints, another space). */
const LANE_LOCK_CLASS = 7391002;

/**
 * Claims of many due targets in one statement. Each target's claim is the same
 * compare-and-set as ever (`scheduled` and due by `now` -> `publishing` with a lease), but
 * the claims asked for at one moment run as one UPDATE over their ids: the statement's
 * fixed cost (the targets' job-status triggers are set up once per statement, not once per
 * row) is paid once for the lot, and their target.publishing events go in one INSERT. A burst of 1,500 claims costs
 * about a fifth of the CPU it did one by one (docs/scheduling.md, "CPU per target").
 */
export function createTargetClaims(db: DB) {
  // `+status`: without the unary plus SQLite walks the (status, fire time) index over every
  // due target instead of looking the few ids up by primary key.
  //
  // PostgreSQL (several daemons over one database, each with the same due targets in its
  // wheel): the rows are locked FOR UPDATE SKIP LOCKED first, so daemons claiming at once
  // take disjoint rows without waiting on each other; the status check still makes each
  // target claimed once, whoever asks (docs/scaling.md "Several daemons").
  // With the label of each target's account, which its target.publishing names.
  const claimUpdate = db.prepare<[{ ids: string; now: number; owner: string; leaseUntil: number }], ClaimedTargetRow & { connection_label: string | null }>(
    dialectOf(db) === 'postgres'
      ? `UPDATE targets SET status = 'publishing', lease_until = @leaseUntil, lease_owner = @owner, attempts = attempts + 1,
       attempt_started_at = @now, updated_at = @now
     WHERE id IN (SELECT id FROM targets WHERE id IN (SELECT value FROM json_each(@ids)) AND status = 'scheduled'
                    AND COALESCE(next_attempt_at, due_at) <= @now FOR UPDATE SKIP LOCKED)
     RETURNING ${CLAIMED_TARGET_COLUMNS}, ${connectionLabelColumn}`
      : `UPDATE targets SET status = 'publishing', lease_until = @leaseUntil, lease_owner = @owner, attempts = attempts + 1,
       attempt_started_at = @now, updated_at = @now
     WHERE id IN (SELECT value FROM json_each(@ids)) AND +status = 'scheduled' AND COALESCE(next_attempt_at, due_at) <= @now
     RETURNING ${CLAIMED_TARGET_COLUMNS}, ${connectionLabelColumn}`,
  );
  const jobsOf = db.prepare<[string], ClaimedPostRow & { id: string }>(
    `SELECT id, ${CLAIMED_JOB_COLUMNS} FROM jobs WHERE id IN (SELECT value FROM json_each(?))`,
  );
  // The claims' attempts rows in one statement (one round trip on PostgreSQL, one step on SQLite).
  const openAttempts = db.prepare<[number, string]>(
    "INSERT INTO attempts (target_id, number, started_at) SELECT value->>'i', CAST(value->>'n' AS BIGINT), ? FROM json_each(?) ORDER BY key",
  );
  const outbox = createOutboxWriter(db);
  const lanes = dialectOf(db) === 'postgres' ? sharedLanes(db) : null;
  const jobLocks = claimJobLocks(db);
  const connectionStates = createConnectionStates(db);

  /** The claims and their attempts rows, in one transaction (a savepoint inside the publisher's batch). */
  const claimMany = db.transaction((asked: readonly string[], now: number, owner: string, leaseUntil: number, perConnection: number): ClaimOutcome[] => {
    const refused = lanes ? lanes.refusals(asked, now, perConnection) : null;
    const ids = refused && refused.size > 0 ? asked.filter((id) => !refused.has(id)) : asked;
    const rows = new Map<string, ClaimedTargetRow & { connection_label: string | null }>();
    if (ids.length > 0) {
      const json = JSON.stringify(ids);
      jobLocks?.(json, now);
      for (const r of claimUpdate.all({ ids: json, now, owner, leaseUntil })) rows.set(r.id, r);
    }
    if (rows.size === 0) return asked.map((id) => refused?.get(id) ?? null);
    const jobs = new Map<string, ClaimedPostRow>();
    for (const j of jobsOf.all(JSON.stringify([...new Set([...rows.values()].map((r) => r.job_id))]))) jobs.set(j.id, j);
    // target.publishing per claim, in the order the UPDATE made them (store/state-events.ts).
    outbox.appendMany([...rows.values()].map((r) => publishingEvent(r, now)));
    const out: ClaimOutcome[] = [];
    const claimed: ClaimedTarget[] = [];
    const attempts: { i: string; n: number }[] = [];
    for (const id of asked) {
      const r = rows.get(id);
      if (!r) {
        out.push(refused?.get(id) ?? null);
        continue;
      }
      // An id asked for twice gets its claim once: the second asker lost the compare-and-set.
      rows.delete(id);
      const job = jobs.get(r.job_id);
      // Cannot happen (targets.job_id references jobs); throwing rolls the claims back.
      if (!job) throw new Error(`target ${r.id} has no job ${r.job_id}`);
      attempts.push({ i: r.id, n: r.attempts });
      const c = toClaimed(r, job);
      claimed.push(c);
      out.push(c);
    }
    openAttempts.run(now, JSON.stringify(attempts));
    // Their accounts' states and credentials (sealed) in one statement, not two a target before its attempt.
    connectionStates(claimed).forEach((read, i) => {
      const c = claimed[i] as ClaimedTarget;
      c.connection = read.connection;
      c.credentials = read.credentials;
    });
    return out;
  });

  return {
    /**
     * The compare-and-set claims of `ids` (`scheduled` and due by `now` -> `publishing`,
     * leased to `owner` until `leaseUntil`) with their attempts rows opened, in one
     * immediate transaction (a savepoint when one is open). Returns, for each id in order,
     * what an adapter needs, or null when it was not claimed (not scheduled, not due, or
     * already claimed). On PostgreSQL, where several daemons claim, a connection never gets
     * more than `perConnection` targets in flight across them all, and a pause any daemon
     * recorded holds at once: such targets come back as `at_cap` or `paused`, still
     * scheduled. On SQLite (one daemon a file) the publisher's gate alone keeps the cap.
     */
    claimMany(ids: readonly string[], now: number, owner: string, leaseUntil: number, perConnection = Number.MAX_SAFE_INTEGER): ClaimOutcome[] {
      return ids.length === 0 ? [] : claimMany.immediate(ids, now, owner, leaseUntil, perConnection);
    },
  };
}

/**
 * The connections' lanes as all daemons over one PostgreSQL database share them: which of
 * the targets asked for must wait because their connection already has `perConnection`
 * targets in flight (in `publishing` under a live lease, whichever daemon holds it: the
 * lease of a daemon that died stops counting when it runs out) or is paused by a
 * platform's limit.
 *
 * The count is made under a transaction-scoped advisory lock per connection, taken first
 * in one statement (in key order, so two claimers lock in the same order): a second
 * daemon claiming for the same connection waits for the first's commit, and its count,
 * a statement of its own (read committed: a new snapshot), sees the first's claims.
 */
function sharedLanes(db: DB) {
  const client = (db as unknown as PostgresDatabase).client;
  const laneOf = "a.user_id || '/' || a.platform || '/' || COALESCE(a.connection_id, '')";
  // Sent without waiting for its answer (as the batch's SAVEPOINT is): the count's answer
  // comes after it, one round trip for both. Native SQL, the ids as a literal (ours: JSON
  // of target ids), since what is sent is neither prepared nor translated.
  const lock = (ids: string) =>
    `SELECT pg_advisory_xact_lock(${LANE_LOCK_CLASS}, k) FROM (SELECT DISTINCT hashtext(${laneOf}) AS k FROM targets a
      WHERE a.id IN (SELECT json_array_elements_text('${ids.replaceAll("'", "''")}'::json)) AND a.status = 'scheduled' ORDER BY k) lanes`;
  const state = db.prepare<[{ ids: string; now: number }], { id: string; lane: string; running: number | string; paused_until: number | string | null }>(
    `SELECT a.id, ${laneOf} AS lane,
       (SELECT count(*) FROM targets p WHERE p.user_id = a.user_id AND p.status = 'publishing' AND p.platform = a.platform
          AND COALESCE(p.connection_id, '') = COALESCE(a.connection_id, '') AND p.lease_until > @now) AS running,
       (SELECT MAX(z.until) FROM platform_pauses z WHERE z.until > @now
          AND z.scope IN ('app:' || a.platform, 'connection:' || a.user_id || ':' || a.platform, 'account:' || COALESCE(a.connection_id, ''))) AS paused_until
     FROM targets a WHERE a.id IN (SELECT value FROM json_each(@ids)) AND a.status = 'scheduled' AND COALESCE(a.next_attempt_at, a.due_at) <= @now
     ORDER BY COALESCE(a.next_attempt_at, a.due_at), a.id`,
  );
  return {
    /** The ids of `asked` that must wait, and why; those not named may be claimed. */
    refusals(asked: readonly string[], now: number, perConnection: number): Map<string, ClaimRefusal> {
      const ids = JSON.stringify(asked);
      client.send(lock(ids));
      const out = new Map<string, ClaimRefusal>();
      const taken = new Map<string, number>();
      // In due order, so a connection's earliest targets take its free slots.
      for (const r of state.all({ ids, now })) {
        if (r.paused_until !== null && Number(r.paused_until) > now) {
          out.set(r.id, 'paused');
          continue;
        }
        const n = (taken.get(r.lane) ?? Number(r.running)) + 1;
        if (n > perConnection) out.set(r.id, 'at_cap');
        else taken.set(r.lane, n);
      }
      return out;
    },
  };
}
