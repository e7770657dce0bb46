import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/database';
import { MIGRATIONS } from '../../src/store/migrations/index';

/** A database as a daemon of one account per network left it: every migration below 200 applied. */
function before200() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  for (const m of [...MIGRATIONS].filter((x) => x.version < 200).sort((a, b) => a.version - b.version)) {
    m.before?.(db);
    db.exec(m.sql);
    db.prepare('INSERT INTO migrations VALUES (?, ?, 0)').run(m.version, m.name);
  }
  return db;
}

describe('migration 200 (several accounts per network)', () => {
  it("makes each existing connection its network's default account labelled default, and binds existing targets to it", () => {
    const db = before200();
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'a@example.com', 0)").run();
    db.prepare("INSERT INTO connections (id, user_id, platform, mode, account_id, created_at, updated_at) VALUES ('con_x', 'u', 'twitter', 'sandbox', 'acc_1', 0, 0)").run();
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_a', 'u', 'c', '[\"twitter\",\"bluesky\"]', 0, 0, 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('t1', 'job_a', 'u', 'twitter', 'tweet', 0, 'scheduled', 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('t2', 'job_a', 'u', 'bluesky', 'post', 0, 'scheduled', 0)").run();

    migrate(db);
    expect(db.prepare("SELECT id, label, is_default, account_id FROM connections").all()).toEqual([{ id: 'con_x', label: 'default', is_default: 1, account_id: 'acc_1' }]);
    expect(db.prepare('SELECT id, connection_id, account_key FROM targets ORDER BY id').all()).toEqual([
      { id: 't1', connection_id: 'con_x', account_key: null },
      { id: 't2', connection_id: null, account_key: null },
    ]);
    // A second account of the network under another label; a second default is refused.
    db.prepare("INSERT INTO connections (id, user_id, platform, label, is_default, mode, created_at, updated_at) VALUES ('con_y', 'u', 'twitter', 'brand', 0, 'sandbox', 0, 0)").run();
    expect(() => db.prepare("INSERT INTO connections (id, user_id, platform, label, mode, created_at, updated_at) VALUES ('con_z', 'u', 'twitter', 'other', 'sandbox', 0, 0)").run()).toThrow(/UNIQUE constraint failed/);
    expect(() => db.prepare("INSERT INTO connections (id, user_id, platform, label, is_default, mode, created_at, updated_at) VALUES ('con_z', 'u', 'twitter', 'brand', 0, 'sandbox', 0, 0)").run()).toThrow(/UNIQUE constraint failed/);
    // 170's index is made again.
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'connections' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all()).toEqual(['connections_one_default', 'connections_sandbox_account']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
