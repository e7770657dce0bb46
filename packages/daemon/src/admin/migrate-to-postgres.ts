import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, rememberDatabaseUrl, resolveDatabaseUrl } from '../config';
import { copyDatabase, CopyRefusedError, tablesWithRows, type CopiedTable, type CopyReport } from '../store/copy-database';
import { openDatabase, openPostgres, type DB } from '../store/database';
import { redactUrl } from '../store/postgres/pg-database';
import { openSandboxDatabase, SANDBOX_DB_FILE, sandboxDbPath } from '../store/sandbox-database';
import { AdminError } from './admin';

export interface MigrateToPostgresOptions {
  /** The data dir whose SQLite database (socialpub.db, and the simulators' sandbox.db) is copied. */
  dataDir: string;
  /** The PostgreSQL database to copy into (`postgres://…`; `?schema=name` picks a schema): it must hold no socialpub data. */
  databaseUrl: string;
  /** Also write `database_url` into the data dir's config.json once the copy is in (default false). */
  use?: boolean;
  /** Called as each table is copied (still inside the transaction). */
  onTable?: (database: 'daemon' | 'sandbox', table: CopiedTable) => void;
}

export interface MigrateToPostgresReport {
  /** The PostgreSQL URL, its password hidden. */
  database: string;
  /** What socialpub.db held, table by table, and the identity sequences set past the copied ids. */
  daemon: CopyReport;
  /** sandbox.db's copy into its own schema (`sandbox`, or `<schema>_sandbox`); null when the data dir had no simulators' data. */
  sandbox: (CopyReport & { schema: string }) | null;
  /** The data dir's config.json and whether `database_url` was written there. */
  configFile: string;
  configWritten: boolean;
}

/**
 * `socialpub db migrate-to postgres://…` (docs/scaling.md "Moving up from SQLite"): copies
 * a data dir's SQLite database into an empty PostgreSQL database, and the simulators'
 * sandbox.db into that database's sandbox schema, so the daemon restarted on PostgreSQL
 * finds every user, key, connection (its sealed tokens open with the same secret.key),
 * post in whatever state, event and webhook as they were.
 *
 * Both copies commit together or not at all as far as PostgreSQL allows: the sandbox's
 * transaction commits inside the daemon's, just before it; each checks its row counts
 * first. SQLite is only read (and migrated to this version, as a daemon start would).
 * The daemon must not run meanwhile: the CLI refuses while it does.
 */
export function migrateToPostgres(opts: MigrateToPostgresOptions): MigrateToPostgresReport {
  const url = resolveDatabaseUrl(opts.databaseUrl);
  if (url === null) throw new AdminError('invalid', 'name the PostgreSQL database to copy into: postgres://user:password@host:port/database');
  const sqlitePath = join(opts.dataDir, 'socialpub.db');
  if (!existsSync(sqlitePath)) throw new AdminError('not_found', `no SQLite database in ${opts.dataDir} (${sqlitePath})`);
  const sandboxFile = join(opts.dataDir, SANDBOX_DB_FILE);
  const sandboxUrl = sandboxDbPath(opts.dataDir, url);

  const open: DB[] = [];
  const keep = (db: DB) => (open.push(db), db);
  try {
    const from = keep(openDatabase(sqlitePath));
    const to = keep(openPostgres(url, { applicationName: 'socialpub-migrate' }));
    refuseIfHoldsData(to, 'the PostgreSQL database');

    // What older versions kept in socialpub.db moves to sandbox.db first, as a daemon start does.
    const hasSandbox = existsSync(sandboxFile) || holdsRows(from, 'sandbox_posts') || holdsRows(from, 'sandbox_state');
    if (hasSandbox && !existsSync(sandboxFile)) openSandboxDatabase({ path: sandboxFile, daemonDbPath: sqlitePath }).close();
    const sandboxFrom = hasSandbox ? keep(openDatabase(sandboxFile)) : null;
    // Opened (and migrated) before the daemon's copy takes the database's migration lock.
    const sandboxTo = hasSandbox ? keep(openPostgres(sandboxUrl, { applicationName: 'socialpub-migrate' })) : null;
    if (sandboxTo) refuseIfHoldsData(sandboxTo, `its sandbox schema (${schemaOf(sandboxUrl)})`);

    let sandbox: MigrateToPostgresReport['sandbox'] = null;
    const daemon = to.transaction(() => {
      const copied = copyDatabase(from, to, { onTable: (t) => opts.onTable?.('daemon', t) });
      if (sandboxFrom && sandboxTo) {
        sandbox = { ...copyDatabase(sandboxFrom, sandboxTo, { holdMigrations: false, onTable: (t) => opts.onTable?.('sandbox', t) }), schema: schemaOf(sandboxUrl) };
      }
      return copied;
    })();
    if (opts.use) rememberDatabaseUrl(opts.dataDir, url);
    return { database: redactUrl(url), daemon, sandbox, configFile: join(opts.dataDir, CONFIG_FILE), configWritten: opts.use === true };
  } catch (error) {
    if (error instanceof CopyRefusedError && error.reason === 'not_empty') throw new AdminError('conflict', error.message);
    throw error;
  } finally {
    for (const db of open.reverse()) db.close();
  }
}

function refuseIfHoldsData(db: DB, what: string): void {
  const tables = tablesWithRows(db);
  if (tables.length === 0) return;
  const shown = tables.slice(0, 6).join(', ') + (tables.length > 6 ? ` and ${tables.length - 6} more` : '');
  throw new AdminError('conflict', `${what} already holds socialpub data (rows in ${shown}): migrate into an empty database, or name an empty schema with ?schema=name`);
}

function holdsRows(db: DB, table: string): boolean {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) === undefined) return false;
  return db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined;
}

const schemaOf = (url: string) => new URL(url).searchParams.get('schema') ?? 'public';
