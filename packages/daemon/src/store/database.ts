import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations/index';
import { POSTGRES_BASELINE_VERSION, postgresBaseline } from './postgres/baseline';
import { dialectOf, isPostgresUrl, PostgresDatabase } from './postgres/pg-database';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './private-files';
import { databaseOptions } from './sqlite-driver';

export type DB = Database.Database;

/**
 * Opens (or creates) the SQLite database, sets the pragmas and applies pending migrations.
 * `:memory:` gives a private in-memory database for tests.
 */
export function openDatabase(path: string): DB {
  if (isPostgresUrl(path)) return openPostgres(path);
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

/**
 * A PostgreSQL database (`postgres://…`) behind the same interface (store/postgres): the
 * repositories run over it unchanged. Migrated like SQLite's, from its own baseline.
 */
export function openPostgres(url: string, opts: { schema?: string; applicationName?: string } = {}): DB {
  const db = new PostgresDatabase(url, opts) as unknown as DB;
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function migrate(db: DB): void {
  if (dialectOf(db) === 'postgres') return migratePostgres(db);
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

/**
 * PostgreSQL's migrations: the baseline (SQLite's 1-200 as one schema) on an empty database,
 * then every later migration's `postgres` text. Daemons starting together take turns on an
 * advisory lock, so each migration runs once.
 */
function migratePostgres(db: DB): void {
  db.transaction(() => {
    db.prepare('SELECT pg_advisory_xact_lock(7391001)').get();
    db.exec('CREATE TABLE IF NOT EXISTS migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    const applied = new Set(db.prepare('SELECT version FROM migrations').pluck().all() as number[]);
    const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const sorted = [...MIGRATIONS].sort((a, b) => a.version - b.version);
    if (!applied.has(POSTGRES_BASELINE_VERSION)) {
      db.exec(postgresBaseline);
      for (const m of sorted) if (m.version <= POSTGRES_BASELINE_VERSION) record.run(m.version, m.name, Date.now());
    }
    for (const m of sorted) {
      if (m.version <= POSTGRES_BASELINE_VERSION || applied.has(m.version)) continue;
      if (m.postgres === undefined) throw new Error(`migration ${m.version} (${m.name}) has no PostgreSQL text`);
      db.exec(m.postgres);
      record.run(m.version, m.name, Date.now());
    }
  })();
}
