import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type DB } from './database';
import { createSandboxStore, daemonReadsOver, type SandboxDaemonReads, type SandboxStore } from './sandbox-store';
import { createSettingsRepository, type SettingsRepository } from './settings';
import { dialectOf, isPostgresUrl, PostgresDatabase } from './postgres/pg-database';
import { databaseOptions } from './sqlite-driver';

/** The simulators' own database, beside the daemon's in the data dir, when they run in a process of their own. */
export const SANDBOX_DB_FILE = 'sandbox.db';

/**
 * Where the simulators keep their data: `sandbox.db` in the data dir, or, when the daemon's
 * database is PostgreSQL, a schema of their own in it (`sandbox`, or `<schema>_sandbox`), so
 * every daemon over that database shares one sandbox world.
 */
export function sandboxDbPath(dataDir: string, daemonDb?: string): string {
  if (!isPostgresUrl(daemonDb)) return join(dataDir, SANDBOX_DB_FILE);
  const u = new URL(daemonDb);
  const schema = u.searchParams.get('schema');
  u.searchParams.set('schema', schema ? `${schema}_sandbox` : 'sandbox');
  return u.toString();
}

/** Set in sandbox.db once what the simulators kept in the daemon's database (before they had their own) is copied over. */
const ADOPTED_KEY = 'sandbox_adopted';

/**
 * An existing SQLite file opened read-only (null when there is none yet): a reader of a WAL
 * database never takes the write lock and never waits on the writer of the other process.
 */
export function openReadOnly(path: string): DB | null {
  // PostgreSQL: a connection of its own; what it reads is there once the owner has migrated.
  if (isPostgresUrl(path)) return new PostgresDatabase(path, { applicationName: 'socialpub-reader' }) as unknown as DB;
  if (!existsSync(path)) return null;
  // better-sqlite3 takes a loaded addon object as nativeBinding too (lib/binding.js); its typings say string only.
  const db = new Database(path, { ...databaseOptions(), readonly: true, fileMustExist: true } as Database.Options);
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * The daemon's tables as the simulators' process reads them: over a read-only connection to
 * the daemon's file, opened on first use (a `sandbox serve` started before any daemon finds
 * no owners and no user faults until the daemon has created its database).
 */
export function daemonReadsFrom(daemonDbPath: string): SandboxDaemonReads & { close(): void } {
  let db: DB | null = null;
  let reads: SandboxDaemonReads | null = null;
  const current = (): SandboxDaemonReads | null => {
    if (reads) return reads;
    try {
      db = openReadOnly(daemonDbPath);
      if (db) reads = daemonReadsOver(db);
    } catch {
      // Not a daemon database yet (created but not migrated): none, and try again next call.
      db?.close();
      db = null;
    }
    return reads;
  };
  return {
    ownerOf: (accountId) => current()?.ownerOf(accountId),
    sandboxPasswordDigest: (accountId) => current()?.sandboxPasswordDigest(accountId) ?? null,
    settings: {
      get<T>(scope: string, key: string): T | null {
        return current()?.settings.get<T>(scope, key) ?? null;
      },
    },
    close: () => db?.close(),
  };
}

export interface OpenedSandboxDatabase {
  /** The connection to sandbox.db (its checkpoints are moved to a thread by the process serving it). */
  db: DB;
  /** The simulators' store: their state and posts in sandbox.db, the daemon's tables read from its file. */
  store: SandboxStore;
  /** sandbox.db's own settings (the origins the simulators served, for `socialpub sandbox endpoints`). */
  settings: SettingsRepository;
  close(): void;
}

/**
 * The simulators' own database (`sandbox.db` in the data dir; the simulators' process and
 * `socialpub sandbox serve`): created like the daemon's (private modes, WAL, the same
 * migrations, so the sandbox tables have exactly the daemon's schema; the daemon's tables
 * stay empty), and on its first open it takes over what the simulators had kept in the
 * daemon's database before, so their posts and state survive the move. Nothing here writes
 * the daemon's file: the daemon's writes never wait on the simulators'.
 */
export function openSandboxDatabase(paths: { path: string; daemonDbPath: string }): OpenedSandboxDatabase {
  const db = openDatabase(paths.path);
  try {
    // Every simulator transaction commits with NORMAL (SandboxStore.atomically): set once
    // for the file rather than switched around each of them.
    db.pragma('synchronous = NORMAL');
    const settings = createSettingsRepository(db);
    // What older versions kept in the daemon's SQLite file (PostgreSQL has no such past).
    if (dialectOf(db) === 'sqlite') adoptDaemonSandbox(db, settings, paths.daemonDbPath);
    const daemon = daemonReadsFrom(paths.daemonDbPath);
    // The simulators' own file: their writes of one turn commit together (SandboxStoreOptions).
    const store = createSandboxStore(db, settings, daemon, { groupCommits: true });
    return {
      db,
      store,
      settings,
      close: () => {
        // What this turn wrote, committed before the file closes (a close would roll it back).
        store.commitNow();
        daemon.close();
        db.close();
      },
    };
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The daemon's view of sandbox.db (read-only: GET /sandbox/posts, `socialpub sandbox posts`
 * and `sandbox endpoints`) while the simulators keep it; null when there is none yet.
 */
export function openSandboxReader(path: string, daemon?: SandboxDaemonReads): { store: SandboxStore; settings: Pick<SettingsRepository, 'get'>; close(): void } | null {
  const db = openReadOnly(path);
  if (!db) return null;
  // PostgreSQL: the schema exists once simulators have run over this database.
  if (dialectOf(db) === 'postgres' && db.prepare("SELECT to_regclass('sandbox_posts')::text AS t").pluck().get() === null) {
    db.close();
    return null;
  }
  const settings = createSettingsRepository(db);
  return { store: createSandboxStore(db, settings, daemon ?? daemonReadsOver(db, settings)), settings, close: () => db.close() };
}

/** Copies sandbox_state, sandbox_posts and the recorded origins from the daemon's file, once (one transaction with the mark). */
function adoptDaemonSandbox(db: DB, settings: SettingsRepository, daemonDbPath: string): void {
  if (settings.get('global', ADOPTED_KEY) !== null) return;
  const from = openReadOnly(daemonDbPath);
  try {
    const has = (table: string) => from?.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    db.transaction(() => {
      let posts = 0;
      if (from && has('sandbox_state')) {
        const put = db.prepare('INSERT OR REPLACE INTO sandbox_state (simulator, kind, key, value) VALUES (?, ?, ?, ?)');
        for (const r of from.prepare<[], { simulator: string; kind: string; key: string; value: string }>('SELECT simulator, kind, key, value FROM sandbox_state').iterate()) {
          put.run(r.simulator, r.kind, r.key, r.value);
        }
      }
      if (from && has('sandbox_posts')) {
        const cols = 'platform, account_id, post_id, post_url, kind, body, created_at, removed_at, account_key';
        const put = db.prepare(`INSERT INTO sandbox_posts (${cols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        for (const r of from.prepare<[], unknown[]>(`SELECT ${cols} FROM sandbox_posts ORDER BY id`).raw().iterate()) {
          put.run(...r);
          posts += 1;
        }
      }
      if (from && has('settings')) {
        for (const r of from.prepare<[], { key: string; value: string }>("SELECT key, value FROM settings WHERE scope = 'global' AND key LIKE 'sandbox_endpoints%'").iterate()) {
          settings.set('global', r.key, JSON.parse(r.value));
        }
      }
      settings.set('global', ADOPTED_KEY, { posts });
    })();
  } finally {
    from?.close();
  }
}
