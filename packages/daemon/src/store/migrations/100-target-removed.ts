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

export const migration100 = `
ALTER TABLE targets ADD COLUMN removed_at INTEGER;
ALTER TABLE targets ADD COLUMN removal TEXT;          -- JSON {state: failed|unknown, code, message, at}: the last take-down that did not end in removed
ALTER TABLE sandbox_posts ADD COLUMN removed_at INTEGER;

-- The job status (002's triggers) with removed targets: where nothing is published any
-- more, nothing is in flight or waiting, and something was taken down, 002's derivation
-- says failed or cancelled; core's deriveJobStatus says removed. 002's triggers are not
-- replaced: SQLite runs the triggers of one statement newest first, and a newer job-status
-- trigger on targets would write post events before the target events of the same change
-- (040). This one corrects the job row right after 002's trigger wrote it.
CREATE TRIGGER jobs_status_removed AFTER UPDATE OF status ON jobs
WHEN NEW.status IN ('failed', 'cancelled')
  AND EXISTS (SELECT 1 FROM targets WHERE job_id = NEW.id AND status = 'removed')
BEGIN
  UPDATE jobs SET status = 'removed' WHERE id = NEW.id;
END;

-- post.finished (040) once per job: a take-down moves a finished job on (published ->
-- partially_published -> removed), which is not the job finishing again. 040's body, copied
-- (migrations are frozen), with the old status that a take-down leaves out.
DROP TRIGGER events_post_finished;
CREATE TRIGGER events_post_finished AFTER UPDATE OF status ON jobs
WHEN OLD.status <> NEW.status AND NEW.status IN ('published', 'partially_published', 'failed')
  AND OLD.status NOT IN ('published', 'partially_published', 'removed')
BEGIN
  INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (NEW.user_id, 'post.finished', NEW.id, NEW.id,
    json_object('job_id', NEW.id, 'status', NEW.status, 'targets', json((SELECT json_group_array(json_object('target_id', t.id, 'platform', t.platform, 'type', t.type, 'status', t.status, 'post_id', t.post_id, 'post_url', t.post_url)) FROM targets t WHERE t.job_id = NEW.id))),
    (SELECT max(updated_at) FROM targets WHERE job_id = NEW.id));
END;

CREATE TRIGGER events_target_removed AFTER UPDATE OF status ON targets
WHEN OLD.status <> NEW.status AND NEW.status = 'removed'
BEGIN
  INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (NEW.user_id, 'target.removed', NEW.job_id, NEW.id,
    json_object('target_id', NEW.id, 'platform', NEW.platform, 'type', NEW.type, 'post_id', NEW.post_id, 'post_url', NEW.post_url, 'removed_at', NEW.removed_at),
    NEW.updated_at);
END;
`;
