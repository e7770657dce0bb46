import type { ClaimedPostRow, ClaimedTarget, ClaimedTargetRow } from './claimed-target';
import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { CLAIMED_JOB_COLUMNS, CLAIMED_TARGET_COLUMNS, toClaimed } from './claimed-target';
import { createOutboxWriter } from './outbox';
import { connectionLabelColumn, publishingEvent } from './state-events';

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

  /** The claims and their attempts rows, in one transaction (a savepoint inside the publisher's batch). */
  const claimMany = db.transaction((ids: readonly string[], now: number, owner: string, leaseUntil: number): (ClaimedTarget | null)[] => {
    const rows = new Map<string, ClaimedTargetRow & { connection_label: string | null }>();
    for (const r of claimUpdate.all({ ids: JSON.stringify(ids), now, owner, leaseUntil })) rows.set(r.id, r);
    if (rows.size === 0) return ids.map(() => null);
    const jobs = new Map<string, ClaimedPostRow>();
    for (const j of jobsOf.all(JSON.stringify([...new Set([...rows.values()].map((r) => r.job_id))]))) jobs.set(j.id, j);
    // target.publishing per claim, in the order the UPDATE made them (store/state-events.ts).
    outbox.appendMany([...rows.values()].map((r) => publishingEvent(r, now)));
    const out: (ClaimedTarget | null)[] = [];
    const attempts: { i: string; n: number }[] = [];
    for (const id of ids) {
      const r = rows.get(id);
      if (!r) {
        out.push(null);
        continue;
      }
      // An id asked for twice gets its claim once: the second asker lost the compare-and-set.
      rows.delete(id);
      const job = jobs.get(r.job_id);
      // Cannot happen (targets.job_id references jobs); throwing rolls the claims back.
      if (!job) throw new Error(`target ${r.id} has no job ${r.job_id}`);
      attempts.push({ i: r.id, n: r.attempts });
      out.push(toClaimed(r, job));
    }
    openAttempts.run(now, JSON.stringify(attempts));
    return out;
  });

  return {
    /**
     * The compare-and-set claims of `ids` (`scheduled` and due by `now` -> `publishing`,
     * leased to `owner` until `leaseUntil`) with their attempts rows opened, in one
     * immediate transaction (a savepoint when one is open). Returns, for each id in order,
     * what an adapter needs, or null when it was not claimed (not scheduled, not due, or
     * already claimed).
     */
    claimMany(ids: readonly string[], now: number, owner: string, leaseUntil: number): (ClaimedTarget | null)[] {
      return ids.length === 0 ? [] : claimMany.immediate(ids, now, owner, leaseUntil);
    },
  };
}
