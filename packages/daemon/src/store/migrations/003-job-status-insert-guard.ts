/**
 * The insert trigger of migration 002 recomputed the job's status (an aggregate over its
 * targets, then an UPDATE of the job row and of its status index) for every target written,
 * although a new target whose status equals the job's current status cannot change it: the
 * derived status is the highest-ranked status present (pending_approval, publishing,
 * scheduled, needs_review), or, when none of those is, all-published / some-published /
 * failed / cancelled — adding one more target of the status already derived keeps each
 * rule's outcome. A new job's targets (usually all `scheduled`, the column's default) now
 * cost no status work. The SQL of the recomputation is 002's, copied: migrations are frozen.
 */
const derived = `(
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
    END FROM targets WHERE job_id = NEW.job_id)`;

export const migration003 = `
DROP TRIGGER targets_job_status_insert;
CREATE TRIGGER targets_job_status_insert AFTER INSERT ON targets
  WHEN NEW.status IS NOT (SELECT status FROM jobs WHERE id = NEW.job_id)
  BEGIN UPDATE jobs SET status = ${derived} WHERE id = NEW.job_id; END;
`;
