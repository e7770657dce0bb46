import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database';

const triggers = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all() as string[]);

describe('migration 160 (events built in code)', () => {
  it('drops every trigger that wrote an event and keeps the job-status triggers and the webhook fan-out', () => {
    const db = openDatabase(':memory:');
    // jobs_status_removed (100) went with migration 190, whose job-status triggers derive `removed` themselves.
    expect(triggers(db)).toEqual(['events_webhook_fanout', 'targets_job_status_delete', 'targets_job_status_insert', 'targets_job_status_update']);
    // A state change made behind the store's back (an sqlite3 shell) reports nothing; the job status still follows.
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'u@example.com', 0)").run();
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_1', 'u', 'c', '[]', 0, 0, 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('t1', 'job_1', 'u', 'twitter', 'tweet', 0, 'publishing', 0)").run();
    db.prepare("UPDATE targets SET status = 'published' WHERE id = 't1'").run();
    expect(db.prepare("SELECT status FROM jobs WHERE id = 'job_1'").pluck().get()).toBe('published');
    expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(0);
  });
});
