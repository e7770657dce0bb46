import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openDatabase, openPostgres, type DB } from '../../src/store/database';
import { isPostgresUrl } from '../../src/store/postgres/pg-database';

/**
 * The database a store test runs on: SQLite in the `unit` project; in the `postgres`
 * project (vitest.config.ts), a schema of its own in that run's PostgreSQL cluster — a
 * fresh one for `:memory:`, the same one again for the same path (a test that reopens its
 * database after a "restart" finds what it wrote).
 */
export function openTestDatabase(path = ':memory:'): DB {
  const url = postgresTestUrl();
  if (!url || isPostgresUrl(path)) return openDatabase(path);
  return openPostgres(url, { schema: path === ':memory:' ? `t_${randomBytes(6).toString('hex')}` : schemaOf(path) });
}

const schemaOf = (path: string) => `f_${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;

/**
 * What a test that starts a daemon over `dataDir` adds to its config input: nothing on
 * SQLite; in the `postgres` project the database URL of the schema openTestDatabase gives
 * for that data dir's socialpub.db, so the test and the daemon see the same database.
 */
export function testDatabaseConfig(dataDir: string): { databaseUrl?: string } {
  const url = postgresTestUrl();
  if (!url) return {};
  const u = new URL(url);
  u.searchParams.set('schema', schemaOf(join(dataDir, 'socialpub.db')));
  return { databaseUrl: u.toString() };
}

/**
 * Makes every insert into `table` fail with `message` (a full disk, a broken constraint):
 * a SQLite trigger, or PostgreSQL's.
 */
export function failInserts(db: DB, table: string, message: string): void {
  if (!postgresTestUrl()) {
    db.exec(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END`);
    return;
  }
  db.exec(`CREATE FUNCTION fail_${table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$;
    CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_${table}()`);
}

/**
 * PostgreSQL only: the next `times` statements that update or insert rows of `table` fail
 * as PostgreSQL fails a transaction it breaks off for a deadlock (SQLSTATE 40P01, or
 * `code`), as when another daemon's transaction waits on it; the rest go through. A
 * sequence counts them, so the count survives the failed transactions' rollbacks.
 */
export function conflictOnWrites(db: DB, table: string, times: number, code = '40P01'): void {
  if (!postgresTestUrl()) throw new Error('conflictOnWrites: a PostgreSQL error, for the postgres project');
  db.exec(`CREATE SEQUENCE conflict_${table}_n;
    CREATE FUNCTION conflict_${table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF nextval('conflict_${table}_n') <= ${times} THEN RAISE EXCEPTION 'deadlock detected (test)' USING ERRCODE = '${code}'; END IF;
      RETURN NEW; END $$;
    CREATE TRIGGER conflict_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION conflict_${table}()`);
}

/** How many statements conflictOnWrites has seen on `table` (failed ones included). */
export function conflictWritesSeen(db: DB, table: string): number {
  return Number(db.prepare(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM conflict_${table}_n`).pluck().get());
}

/** Drops what failInserts made. */
export function stopFailingInserts(db: DB, table: string): void {
  db.exec(postgresTestUrl() ? `DROP TRIGGER fail_${table} ON ${table}; DROP FUNCTION fail_${table}()` : `DROP TRIGGER fail_${table}`);
}

/**
 * Waits until this process has heard of the commits it made: SQLite's in-process hooks run
 * at the next turn of the event loop; PostgreSQL's notifications come back from the server.
 */
export async function afterCommitNotices(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (postgresTestUrl()) await new Promise<void>((resolve) => setTimeout(resolve, 150));
}

/** The cluster's URL in the `postgres` project; undefined in the others. */
export function postgresTestUrl(): string | undefined {
  return process.env.SOCIALPUB_TEST_POSTGRES_URL || undefined;
}

/** Which database this run's store tests use. */
export const testDialect: 'sqlite' | 'postgres' = postgresTestUrl() ? 'postgres' : 'sqlite';
