import type Database from 'better-sqlite3';

/**
 * Take-downs (docs/api.md "Take-downs"): the target status `removed`, the job status
 * `removed`, when a target was taken down and its last failed or unknown take-down, the
 * `target.removed` event, and the simulators' record of deleted posts.
 *
 * `targets.status` has a CHECK of the statuses of migration 001. Rebuilding the table to
 * change it would, with foreign keys on, cascade-delete every attempt row (DROP TABLE runs
 * an implicit DELETE) and drop the status and event triggers of 002, 003 and 040. The
 * CHECK only widens (no stored row can fail it), which changes nothing on disk, so
 * `widenTargetStatusCheck` rewrites the table's CREATE statement in the schema in place:
 * the procedure SQLite documents for constraint changes that do not affect stored content
 * (https://www.sqlite.org/lang_altertable.html, "making other kinds of table schema changes").
 */
const OLD_CHECK = "'cancelled', 'needs_review'))";
const NEW_CHECK = "'cancelled', 'needs_review', 'removed'))";

export function widenTargetStatusCheck(db: Database.Database): void {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'targets'").get() as { sql: string } | undefined;
  if (!row) throw new Error('migration 100: no targets table');
  if (row.sql.includes(NEW_CHECK)) return;
  if (row.sql.split(OLD_CHECK).length !== 2) throw new Error('migration 100: the targets status CHECK is not the one migration 001 wrote');
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'targets'").run(row.sql.replace(OLD_CHECK, NEW_CHECK));
    // A new schema version makes every connection (this one included) re-read the schema.
    db.pragma(`schema_version = ${version + 1}`);
    db.pragma('writable_schema = OFF');
  } finally {
    db.unsafeMode(false);
  }
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new Error(`migration 100: quick_check after widening the CHECK: ${String(check)}`);
}

/** 002's derivation plus `removed`: nothing published any more, something taken down (core's deriveJobStatus). */
const derived = (jobId: string) => `(
    SELECT CASE
      WHEN count(*) = 0 THEN 'cancelled'
      WHEN sum(status = 'pending_approval') > 0 THEN 'pending_approval'
      WHEN sum(status = 'publishing') > 0 THEN 'publishing'
      WHEN sum(status = 'scheduled') > 0 THEN 'scheduled'
      WHEN sum(status = 'needs_review') > 0 THEN 'needs_review'
      WHEN sum(status = 'published') = count(*) THEN 'published'
      WHEN sum(status = 'published') > 0 THEN 'partially_published'
      WHEN sum(status = 'removed') > 0 THEN 'removed'
      WHEN sum(status = 'failed') > 0 THEN 'failed'
      ELSE 'cancelled'
    END FROM targets WHERE job_id = ${jobId})`;

const refresh = (jobId: string) => `UPDATE jobs SET status = ${derived(jobId)} WHERE id = ${jobId};`;

export const migration100 = `
ALTER TABLE targets ADD COLUMN removed_at INTEGER;
ALTER TABLE targets ADD COLUMN removal TEXT;          -- JSON {state: failed|unknown, code, message, at}: the last take-down that did not end in removed
ALTER TABLE sandbox_posts ADD COLUMN removed_at INTEGER;

DROP TRIGGER targets_job_status_insert;
DROP TRIGGER targets_job_status_update;
DROP TRIGGER targets_job_status_delete;
CREATE TRIGGER targets_job_status_insert AFTER INSERT ON targets
  WHEN NEW.status IS NOT (SELECT status FROM jobs WHERE id = NEW.job_id)
  BEGIN ${refresh('NEW.job_id')} END;
CREATE TRIGGER targets_job_status_update AFTER UPDATE OF status ON targets BEGIN ${refresh('NEW.job_id')} END;
CREATE TRIGGER targets_job_status_delete AFTER DELETE ON targets BEGIN ${refresh('OLD.job_id')} END;

CREATE TRIGGER events_target_removed AFTER UPDATE OF status ON targets
WHEN OLD.status <> NEW.status AND NEW.status = 'removed'
BEGIN
  INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (NEW.user_id, 'target.removed', NEW.job_id, NEW.id,
    json_object('target_id', NEW.id, 'platform', NEW.platform, 'type', NEW.type, 'post_id', NEW.post_id, 'post_url', NEW.post_url, 'removed_at', NEW.removed_at),
    NEW.updated_at);
END;
`;
