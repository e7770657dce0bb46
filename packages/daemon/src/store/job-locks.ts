import type { DB } from './database';
import { dialectOf, type PostgresDatabase } from './postgres/pg-database';

/**
 * PostgreSQL: the job rows a write batch's claims or attempt ends will change, locked in
 * id order before the write.
 *
 * A target's change recomputes its job's status under the job row's lock (the trigger,
 * migration 310), taken in the order the UPDATE meets the targets. Two daemons claiming
 * or ending targets of the same jobs at once (a post's targets go out through different
 * accounts, so from different daemons' shares) took those locks in different orders and
 * deadlocked, and PostgreSQL undid one daemon's whole write batch (the publisher writes it
 * again). Taken first and in one order, one waits for the other's commit instead.
 *
 * Sent without waiting for the answer (as the connection lanes' lock of
 * store/target-claims.ts): the write's own answer comes after it, one round trip for both.
 * Native SQL with the ids as a literal (ours: JSON of target ids), since what is sent is
 * neither prepared nor translated. On SQLite (one writer at a time) there is nothing to
 * order: null.
 */
export type JobLocks = (targetIds: string, now: number) => void;

/**
 * Before a claim: the jobs of the targets it can take (scheduled and due by `now`). Those
 * targets are locked first, skipping the ones another claimer holds (as the claim does),
 * so no job row is waited for on behalf of a target this claim will not get.
 */
export function claimJobLocks(db: DB): JobLocks | null {
  const client = clientOf(db);
  if (!client) return null;
  return (ids, now) =>
    client.send(
      `SELECT j.id FROM jobs j WHERE j.id IN (SELECT t.job_id FROM targets t
         WHERE t.id IN (SELECT json_array_elements_text(${literal(ids)}::json)) AND t.status = 'scheduled'
           AND COALESCE(t.next_attempt_at, t.due_at) <= ${Math.trunc(now)} FOR UPDATE OF t SKIP LOCKED)
       ORDER BY j.id FOR NO KEY UPDATE OF j`,
    );
}

/** Before attempt ends: the jobs of the targets (in `publishing`, leased to the writer: no other claimer locks them). */
export function endJobLocks(db: DB): ((targetIds: string) => void) | null {
  const client = clientOf(db);
  if (!client) return null;
  return (ids) =>
    client.send(
      `SELECT j.id FROM jobs j WHERE j.id IN (SELECT t.job_id FROM targets t WHERE t.id IN (SELECT json_array_elements_text(${literal(ids)}::json)))
       ORDER BY j.id FOR NO KEY UPDATE OF j`,
    );
}

function clientOf(db: DB) {
  return dialectOf(db) === 'postgres' ? (db as unknown as PostgresDatabase).client : null;
}

function literal(json: string): string {
  return `'${json.replaceAll("'", "''")}'`;
}
