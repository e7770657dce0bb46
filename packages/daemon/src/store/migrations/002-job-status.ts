/**
 * A job's derived status, kept in a column by triggers so that GET /content/scheduled can
 * filter and page by status through an index. The triggers mirror core's deriveJobStatus
 * (a test checks they agree), and fire on every target write, whoever makes it (HTTP
 * layer, publisher, recovery), so the column cannot drift from the targets.
 */

/** The status of the job `jobId` (an SQL expression) from its targets; `status` below is targets.status. */
const derived = (jobId: string) => `(
    SELECT CASE
      WHEN count(*) = 0 THEN 'cancelled'
      WHEN sum(status = 'pending_approval') > 0 THEN 'pending_approval'
      WHEN sum(status = 'publishing') > 0 THEN 'publishing'
      WHEN sum(status = 'scheduled') > 0 THEN 'scheduled'
      WHEN sum(status = 'needs_review') > 0 THEN 'needs_review'
      WHEN sum(status = 'published') = count(*) THEN 'published'
      WHEN sum(status = 'published') > 0 THEN 'partially_published'
      WHEN sum(status = 'failed') > 0 THEN 'failed'
      ELSE 'cancelled'
    END FROM targets WHERE job_id = ${jobId})`;

const refresh = (jobId: string) => `UPDATE jobs SET status = ${derived(jobId)} WHERE id = ${jobId};`;

export const migration002 = `
ALTER TABLE jobs ADD COLUMN status TEXT NOT NULL DEFAULT 'scheduled';
CREATE INDEX jobs_user_status_sort ON jobs(user_id, status, sort_at, id);
CREATE TRIGGER targets_job_status_insert AFTER INSERT ON targets BEGIN ${refresh('NEW.job_id')} END;
CREATE TRIGGER targets_job_status_update AFTER UPDATE OF status ON targets BEGIN ${refresh('NEW.job_id')} END;
CREATE TRIGGER targets_job_status_delete AFTER DELETE ON targets BEGIN ${refresh('OLD.job_id')} END;
-- Jobs stored before this migration.
UPDATE jobs SET status = ${derived('jobs.id')};
`;
