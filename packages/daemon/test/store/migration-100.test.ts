import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/store/database';
import { MIGRATIONS } from '../../src/store/migrations/index';
import { createRemovalsRepository } from '../../src/store/removals';

/** A database as a daemon before take-downs left it: every migration below 100 applied. */
function before100() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  for (const m of [...MIGRATIONS].filter((x) => x.version < 100).sort((a, b) => a.version - b.version)) {
    m.before?.(db);
    db.exec(m.sql);
    db.prepare('INSERT INTO migrations VALUES (?, ?, 0)').run(m.version, m.name);
  }
  return db;
}

const tableSql = (db: Database.Database, name: string) => (db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(name) as { sql: string }).sql;

describe('migration 100 (target status removed)', () => {
  it('widens the status CHECK of an existing database in place, keeping its targets, attempts and triggers', () => {
    const db = before100();
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'a@example.com', 0)").run();
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_a', 'u', 'c', '[\"twitter\"]', 0, 0, 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, post_id, updated_at) VALUES ('t1', 'job_a', 'u', 'twitter', 'tweet', 0, 'published', '123', 0)").run();
    db.prepare("INSERT INTO attempts (target_id, number, started_at, outcome) VALUES ('t1', 1, 0, 'published')").run();
    expect(() => db.prepare("UPDATE targets SET status = 'removed' WHERE id = 't1'").run()).toThrow(/CHECK constraint failed/);

    migrate(db);
    expect(db.prepare('SELECT count(*) AS n FROM attempts').get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT status FROM jobs WHERE id = 'job_a'").get()).toEqual({ status: 'published' });
    // The take-down through its store operation, which writes target.removed since migration 160.
    expect(createRemovalsRepository(db).markRemoved('job_a', 't1', 5)).toBe(true);
    expect(db.prepare("SELECT status FROM jobs WHERE id = 'job_a'").get()).toEqual({ status: 'removed' });
    expect(db.prepare("SELECT type, subject, json_extract(data, '$.post_id') AS post_id FROM events WHERE type = 'target.removed'").all()).toEqual([{ type: 'target.removed', subject: 't1', post_id: '123' }]);
    expect(() => db.prepare("UPDATE targets SET status = 'gone' WHERE id = 't1'").run()).toThrow(/CHECK constraint failed/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // A new database ends with the same targets table.
    expect(tableSql(db, 'targets')).toBe(tableSql(openDatabase(':memory:'), 'targets'));
  });
});
