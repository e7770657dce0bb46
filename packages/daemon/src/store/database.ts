import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations/index';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './private-files';
import { databaseOptions } from './sqlite-driver';

export type DB = Database.Database;

/**
 * Opens (or creates) the SQLite database, sets the pragmas and applies pending migrations.
 * `:memory:` gives a private in-memory database for tests.
 */
export function openDatabase(path: string): DB {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    ensurePrivateFile(path);
  }
  // better-sqlite3 takes a loaded addon object as nativeBinding too (lib/binding.js); its typings say string only.
  const db = new Database(path, databaseOptions() as Database.Options);
  db.pragma('journal_mode = WAL');
  // Made by SQLite with the database file's mode; older ones may predate it being 0600.
  for (const extra of [`${path}-wal`, `${path}-shm`]) if (path !== ':memory:' && existsSync(extra)) chmodSync(extra, PRIVATE_FILE_MODE);
  // FULL: an accepted request (any 2xx) is durable before its response leaves, even on power loss.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: DB): void {
  db.exec('CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM migrations').pluck().all() as number[]);
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      m.before?.(db);
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
  }
}
