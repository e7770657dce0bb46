import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { quoteIdent } from './postgres/sync-client';

/**
 * Copying one SQLite database into one PostgreSQL schema that has the same migrations
 * applied (`socialpub db migrate-to`, admin/migrate-to-postgres.ts). Generic over the
 * schema: every table SQLite has is copied column by column, by name, so a table or
 * column added by a later migration is copied without a change here.
 */

/** Not copied: each database records its own migrations; `daemons` holds the heartbeats of running daemons, not data. */
const NOT_COPIED = new Set(['migrations', 'daemons']);

/** PostgreSQL's limit is 65,535 parameters a statement; a batch stays well under it and under a few hundred KB. */
const PARAMETERS_PER_BATCH = 20_000;
const ROWS_PER_BATCH = 1_000;

export interface CopiedTable {
  table: string;
  /** Rows in SQLite, and in PostgreSQL after the copy (checked equal before the commit). */
  rows: number;
}

export interface AdvancedSequence {
  table: string;
  column: string;
  /** The value the next row inserted without one gets. */
  next: number;
}

export interface CopyReport {
  tables: CopiedTable[];
  sequences: AdvancedSequence[];
}

export interface CopyOptions {
  /** Called as each table is in (still inside the transaction). */
  onTable?: (table: CopiedTable) => void;
  /**
   * Hold the migration lock of `to`'s database for the copy (default true). A second copy
   * into another schema of the same database, nested in the first, passes false: the
   * lock is the database's, and the first copy holds it.
   */
  holdMigrations?: boolean;
}

/** A copy that cannot be made as asked: the destination holds data, the schemas differ, or a value does not fit. */
export class CopyRefusedError extends Error {
  override name = 'CopyRefusedError';
  constructor(
    readonly reason: 'not_empty' | 'schema' | 'value' | 'count',
    message: string,
  ) {
    super(message);
  }
}

interface PgColumn {
  name: string;
  type: string;
  identity: boolean;
  hasDefault: boolean;
  nullable: boolean;
}

/** The tables of `to` (PostgreSQL, its current schema) that hold rows; `migrations` is the schema's, not data. */
export function tablesWithRows(to: DB): string[] {
  const tables = to.prepare("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name").pluck().all() as string[];
  return tables.filter((t) => t !== 'migrations' && to.prepare(`SELECT 1 FROM ${quoteIdent(t)} LIMIT 1`).get() !== undefined);
}

/**
 * Copies every table of `from` (SQLite) into `to` (PostgreSQL, migrated to the same version,
 * empty) in ONE PostgreSQL transaction, reading SQLite in one read transaction (one
 * snapshot): rows in SQLite's insertion order (rowid), identity values as they were
 * (events, attempts, webhook messages keep their ids: clients' cursors stay valid),
 * `targets`/`job_comments`' insertion-order column from SQLite's rowid; then checks the
 * row count of every table and sets every identity sequence past the largest id copied
 * (and past SQLite's AUTOINCREMENT high-water mark, so no id is ever reused). Any failure
 * rolls the whole copy back.
 *
 * Triggers of `to` are off during the copy (the rows already carry what they computed: a
 * job's status, the webhook messages of events) and on again before the commit. Daemons
 * starting on `to` meanwhile wait for the commit (its migration lock is held).
 */
export function copyDatabase(from: DB, to: DB, opts: CopyOptions = {}): CopyReport {
  if (dialectOf(from) !== 'sqlite' || dialectOf(to) !== 'postgres') throw new TypeError('copyDatabase copies a SQLite database into a PostgreSQL one');
  return from.transaction(() =>
    to.transaction(() => {
      const sqliteTables = (from.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string; sql: string }[]).filter(
        (t) => !NOT_COPIED.has(t.name),
      );
      const order = insertOrder(from, sqliteTables.map((t) => t.name));
      const withoutRowid = new Set(sqliteTables.filter((t) => /\bWITHOUT\s+ROWID\b/i.test(t.sql)).map((t) => t.name));
      const highWater = new Map<string, number>();
      if (from.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined) {
        for (const r of from.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[]) highWater.set(r.name, Number(r.seq));
      }

      // The migration lock (store/database.ts): a daemon starting on this database waits until the copy is in.
      if (opts.holdMigrations !== false) to.prepare('SELECT pg_advisory_xact_lock(7391001)').get();
      // A copy of a large database may outlast the session's idle limit on this connection while another copy runs.
      to.exec('SET LOCAL idle_in_transaction_session_timeout = 0');
      const occupied = tablesWithRows(to);
      if (occupied.length > 0) throw notEmpty(occupied);
      const pgColumns = columnsOf(to);
      for (const table of order) if (!pgColumns.has(table)) throw new CopyRefusedError('schema', `PostgreSQL has no table ${table}: is it migrated to the same version as the SQLite database?`);

      for (const table of order) to.exec(`ALTER TABLE ${quoteIdent(table)} DISABLE TRIGGER USER`);
      const tables: CopiedTable[] = [];
      for (const table of order) {
        const copied = copyTable(from, to, table, pgColumns.get(table)!, !withoutRowid.has(table));
        tables.push(copied);
        opts.onTable?.(copied);
      }
      for (const table of order) to.exec(`ALTER TABLE ${quoteIdent(table)} ENABLE TRIGGER USER`);

      const sequences: AdvancedSequence[] = [];
      for (const table of order) {
        for (const column of pgColumns.get(table)!.filter((c) => c.identity)) {
          const max = Number(to.prepare(`SELECT COALESCE(MAX(${quoteIdent(column.name)}), 0) AS m FROM ${quoteIdent(table)}`).pluck().get());
          const last = Math.max(max, column.name === 'id' ? (highWater.get(table) ?? 0) : 0);
          if (last < 1) continue;
          to.prepare('SELECT setval(pg_get_serial_sequence(?, ?), ?, true)').get(quoteIdent(table), column.name, last);
          sequences.push({ table, column: column.name, next: last + 1 });
        }
      }
      return { tables, sequences };
    })(),
  )();
}

function notEmpty(tables: string[]): CopyRefusedError {
  const shown = tables.slice(0, 6).join(', ') + (tables.length > 6 ? ` and ${tables.length - 6} more` : '');
  return new CopyRefusedError('not_empty', `the PostgreSQL database already holds socialpub data (rows in ${shown}); migrate into an empty database or schema`);
}

/** One table: SQLite's columns by name into PostgreSQL's, in batches of many rows a statement, then the counts compared. */
function copyTable(from: DB, to: DB, table: string, pg: PgColumn[], hasRowid: boolean): CopiedTable {
  const pgByName = new Map(pg.map((c) => [c.name, c]));
  const columns = (from.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[]).map((c) => c.name);
  for (const c of columns) if (!pgByName.has(c)) throw new CopyRefusedError('schema', `PostgreSQL's ${table} has no column ${c}`);
  // SQLite's implicit rowid, kept where PostgreSQL has a column for it (targets, job_comments: the store orders by it).
  const rowidColumn = hasRowid && pgByName.has('rowid') && !columns.includes('rowid');
  for (const c of pg) {
    if (columns.includes(c.name) || (rowidColumn && c.name === 'rowid')) continue;
    if (!c.nullable && !c.hasDefault && !c.identity) throw new CopyRefusedError('schema', `SQLite's ${table} has no column ${c.name}, which PostgreSQL requires`);
  }
  const names = rowidColumn ? [...columns, 'rowid'] : columns;
  const targets = names.map((n) => pgByName.get(n)!);
  const overriding = targets.some((c) => c.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
  const select = `SELECT ${columns.map(quoteIdent).join(', ')}${rowidColumn ? ', rowid' : ''} FROM ${quoteIdent(table)}${hasRowid ? ' ORDER BY rowid' : ''}`;
  const perBatch = Math.max(1, Math.min(ROWS_PER_BATCH, Math.floor(PARAMETERS_PER_BATCH / names.length)));
  const insertText = (rows: number) => {
    const tuple = `(${names.map(() => '?').join(', ')})`;
    return `INSERT INTO ${quoteIdent(table)} (${names.map(quoteIdent).join(', ')})${overriding} VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
  };
  const full = to.prepare(insertText(perBatch));
  let batch: unknown[] = [];
  let rows = 0;
  let inBatch = 0;
  const flush = () => {
    if (inBatch === 0) return;
    try {
      (inBatch === perBatch ? full : to.prepare(insertText(inBatch))).run(batch);
    } catch (error) {
      throw new CopyRefusedError('value', `copying ${table} (rows ${rows - inBatch + 1}-${rows}): ${(error as Error).message}`);
    }
    batch = [];
    inBatch = 0;
  };
  for (const row of from.prepare(select).raw().iterate() as IterableIterator<unknown[]>) {
    for (let i = 0; i < row.length; i++) batch.push(checked(table, targets[i]!, row[i]));
    rows++;
    if (++inBatch === perBatch) flush();
  }
  flush();
  const inSqlite = Number(from.prepare(`SELECT COUNT(*) FROM ${quoteIdent(table)}`).pluck().get());
  const inPostgres = Number(to.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(table)}`).pluck().get());
  if (inSqlite !== rows || inPostgres !== rows) throw new CopyRefusedError('count', `${table}: ${inSqlite} rows in SQLite, ${rows} read, ${inPostgres} in PostgreSQL after the copy`);
  return { table, rows };
}

/** A SQLite value as PostgreSQL's column takes it, or a clear error (PostgreSQL's own would not name the row). */
function checked(table: string, column: PgColumn, v: unknown): unknown {
  if (v === null) return null;
  if (column.type === 'bigint' || column.type === 'integer') {
    if (typeof v === 'number' && !Number.isInteger(v)) throw new CopyRefusedError('value', `${table}.${column.name} holds ${v}, which is not a whole number (PostgreSQL's column is ${column.type})`);
    if (typeof v === 'string' || Buffer.isBuffer(v)) throw new CopyRefusedError('value', `${table}.${column.name} holds text where PostgreSQL's column is ${column.type}: ${JSON.stringify(String(v).slice(0, 40))}`);
    return v;
  }
  if (column.type === 'text') {
    if (Buffer.isBuffer(v)) return v.toString('utf8');
    const s = typeof v === 'string' ? v : String(v);
    // PostgreSQL's text cannot hold NUL.
    if (s.includes('\0')) throw new CopyRefusedError('value', `${table}.${column.name} holds a NUL character, which PostgreSQL's text cannot store`);
    return s;
  }
  return v;
}

/** PostgreSQL's columns of every table of its current schema. */
function columnsOf(to: DB): Map<string, PgColumn[]> {
  const rows = to
    .prepare(
      `SELECT table_name AS t, column_name AS c, data_type AS type, is_identity AS ident, column_default AS def, is_nullable AS nullable
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    )
    .all() as { t: string; c: string; type: string; ident: string; def: string | null; nullable: string }[];
  const out = new Map<string, PgColumn[]>();
  for (const r of rows) {
    let list = out.get(r.t);
    if (!list) out.set(r.t, (list = []));
    list.push({ name: r.c, type: r.type, identity: r.ident === 'YES', hasDefault: r.def !== null, nullable: r.nullable === 'YES' });
  }
  return out;
}

/** The tables in an order that inserts every referenced row before the rows that reference it (SQLite's foreign keys). */
function insertOrder(from: DB, tables: string[]): string[] {
  const known = new Set(tables);
  const deps = new Map(tables.map((t) => [t, new Set((from.prepare(`PRAGMA foreign_key_list(${quoteIdent(t)})`).all() as { table: string }[]).map((f) => f.table).filter((d) => d !== t && known.has(d)))]));
  const out: string[] = [];
  const placed = new Set<string>();
  while (out.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...deps.get(t)!].every((d) => placed.has(d)));
    if (ready.length === 0) throw new CopyRefusedError('schema', `the foreign keys of ${tables.filter((t) => !placed.has(t)).join(', ')} form a cycle`);
    for (const t of ready) {
      placed.add(t);
      out.push(t);
    }
  }
  return out;
}
