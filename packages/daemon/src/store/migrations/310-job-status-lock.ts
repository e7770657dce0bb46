/**
 * PostgreSQL: a job's status (derived from its targets by the trigger of the baseline) is
 * recomputed under the job row's lock, in a statement of its own after the lock is taken.
 *
 * Before, the trigger ran one `UPDATE jobs SET status = <derived from targets>`. Two
 * transactions changing targets of one job at once (two daemons ending its last two
 * targets) met on the job row: the second waited for the first's commit, and PostgreSQL
 * then re-evaluated its UPDATE on the new row version but with the statement's snapshot,
 * taken before that commit, so the first's target change was not counted: both targets
 * settled and the job left `publishing` for good, its post.finished never sent. Now the
 * trigger locks the row first (`FOR NO KEY UPDATE`, as the UPDATE would); the UPDATE that
 * follows is a new statement with a new snapshot (read committed), which sees the targets
 * of every transaction that held the lock before. A status that does not change is not
 * written again (no new row version).
 *
 * SQLite runs one write transaction at a time, each seeing every earlier commit: its
 * triggers (migration 190) need no change, so its text is empty.
 */
export const migration310 = '';

export const migration310Postgres = `
CREATE OR REPLACE FUNCTION socialpub_targets_job_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  job TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.job_id ELSE NEW.job_id END;
  derived TEXT;
BEGIN
  IF TG_OP = 'INSERT' AND NEW.status IS NOT DISTINCT FROM (SELECT status FROM jobs WHERE id = NEW.job_id) THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM jobs WHERE id = job FOR NO KEY UPDATE;
  derived := socialpub_job_status(job);
  UPDATE jobs SET status = derived WHERE id = job AND status IS DISTINCT FROM derived;
  RETURN NULL;
END
$$;
`;
