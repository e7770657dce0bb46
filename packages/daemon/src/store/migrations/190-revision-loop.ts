import type Database from 'better-sqlite3';

/**
 * The revision loop (issue 38, item 4; docs/api.md "Requesting changes"):
 * - the target status `changes_requested` (a reviewer asked for changes; the scheduler
 *   publishes only `scheduled`, so it is never due) and the review-link decision
 *   `request_changes`: both CHECKs widened in place, as migration 100 widened the target
 *   statuses (a widened CHECK changes nothing stored; rebuilding `targets` would cascade
 *   into its attempts and drop its triggers);
 * - the job-status triggers of 002/003 rebuilt with core's whole deriveJobStatus:
 *   changes_requested ranks right after pending_approval, and `removed` is derived here
 *   instead of corrected afterwards by 100's jobs_status_removed (dropped: it could not see
 *   changes_requested). Event triggers (040) are gone since 160, so trigger order no longer
 *   matters;
 * - job_approvals: each approve, reject and request for changes (who, from where, on which
 *   version, the comment), the post's `approvals`;
 * - job_comments: the post's comment thread (`comments`).
 */
interface Widening {
  table: string;
  old: string;
  widened: string;
}

const WIDENINGS: readonly Widening[] = [
  { table: 'targets', old: "'cancelled', 'needs_review', 'removed'))", widened: "'cancelled', 'needs_review', 'removed', 'changes_requested'))" },
  { table: 'review_link_decisions', old: "CHECK (decision IN ('approve', 'reject'))", widened: "CHECK (decision IN ('approve', 'reject', 'request_changes'))" },
];

/** Rewrites the CREATE statements of WIDENINGS in the schema (see migration 100 for why this is the documented procedure). */
export function widenRevisionChecks(db: Database.Database): void {
  const sqlOf = db.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?");
  const edits: Array<{ table: string; sql: string }> = [];
  for (const w of WIDENINGS) {
    const row = sqlOf.get(w.table);
    if (!row) throw new Error(`migration 190: no ${w.table} table`);
    if (row.sql.includes(w.widened)) continue;
    if (row.sql.split(w.old).length !== 2) throw new Error(`migration 190: the ${w.table} CHECK is not the one earlier migrations wrote`);
    edits.push({ table: w.table, sql: row.sql.replace(w.old, w.widened) });
  }
  if (edits.length === 0) return;
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    const write = db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?");
    for (const e of edits) write.run(e.sql, e.table);
    // A new schema version makes every connection (this one included) re-read the schema.
    db.pragma(`schema_version = ${version + 1}`);
    db.pragma('writable_schema = OFF');
  } finally {
    db.unsafeMode(false);
  }
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new Error(`migration 190: quick_check after widening the CHECKs: ${String(check)}`);
}

/** core's deriveJobStatus in SQL, over the targets of the job `jobId`. */
const derived = (jobId: string) => `(
    SELECT CASE
      WHEN count(*) = 0 THEN 'cancelled'
      WHEN sum(status = 'pending_approval') > 0 THEN 'pending_approval'
      WHEN sum(status = 'changes_requested') > 0 THEN 'changes_requested'
      WHEN sum(status = 'publishing') > 0 THEN 'publishing'
      WHEN sum(status = 'scheduled') > 0 THEN 'scheduled'
      WHEN sum(status = 'needs_review') > 0 THEN 'needs_review'
      WHEN sum(status = 'published') = count(*) THEN 'published'
      WHEN sum(status = 'published') > 0 THEN 'partially_published'
      WHEN sum(status = 'removed') > 0 THEN 'removed'
      WHEN sum(status = 'failed') > 0 THEN 'failed'
      ELSE 'cancelled'
    END FROM targets WHERE job_id = ${jobId})`;

export const migration190 = `
DROP TRIGGER targets_job_status_insert;
DROP TRIGGER targets_job_status_update;
DROP TRIGGER targets_job_status_delete;
DROP TRIGGER jobs_status_removed;
CREATE TRIGGER targets_job_status_insert AFTER INSERT ON targets
  WHEN NEW.status IS NOT (SELECT status FROM jobs WHERE id = NEW.job_id)
  BEGIN UPDATE jobs SET status = ${derived('NEW.job_id')} WHERE id = NEW.job_id; END;
CREATE TRIGGER targets_job_status_update AFTER UPDATE OF status ON targets BEGIN UPDATE jobs SET status = ${derived('NEW.job_id')} WHERE id = NEW.job_id; END;
CREATE TRIGGER targets_job_status_delete AFTER DELETE ON targets BEGIN UPDATE jobs SET status = ${derived('OLD.job_id')} WHERE id = OLD.job_id; END;

CREATE TABLE job_approvals (
  id INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('approved', 'rejected', 'changes_requested')),
  by TEXT,
  source TEXT NOT NULL CHECK (source IN ('dashboard', 'api', 'cli', 'mcp', 'review_link')),
  review_link_id TEXT,
  version INTEGER NOT NULL,
  comment TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX job_approvals_job ON job_approvals(job_id, id);

CREATE TABLE job_comments (
  id TEXT PRIMARY KEY,
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  by TEXT,
  source TEXT NOT NULL CHECK (source IN ('dashboard', 'api', 'cli', 'mcp', 'review_link')),
  review_link_id TEXT,
  version INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX job_comments_job ON job_comments(job_id, at, id);
`;
