import type Database from 'better-sqlite3';
import { PostgresError, SyncPostgresClient } from './sync-client';
import { translateSql, type TranslatedSql } from './translate';

/**
 * A PostgreSQL database behind the part of better-sqlite3's interface the store uses
 * (`prepare` with `run`/`get`/`all`/`iterate`/`pluck`/`raw`, `transaction`, `exec`,
 * `pragma`), so the same repositories, with the same synchronous transactions, run over
 * either database. One connection, one statement at a time, as SQLite's one connection:
 * a transaction's statements and the JavaScript between them run without anything else
 * of this process in between. Other daemons over the same database are kept out by the
 * statements themselves (compare-and-set on status, unique keys, `FOR UPDATE SKIP LOCKED`).
 */
export class PostgresDatabase {
  readonly dialect = 'postgres' as const;
  readonly memory = false;
  readonly readonly = false;
  readonly name: string;
  readonly client: SyncPostgresClient;
  #open = true;
  #depth = 0;
  #statements = 0;
  readonly #translated = new Map<string, TranslatedSql & { id: string }>();

  constructor(url: string, opts: { schema?: string; applicationName?: string } = {}) {
    this.name = redactUrl(url);
    // `?schema=name` is socialpub's (not libpq's): the schema its tables live in, default public.
    const u = new URL(url);
    const schema = opts.schema ?? u.searchParams.get('schema') ?? 'public';
    u.searchParams.delete('schema');
    url = u.toString();
    this.client = new SyncPostgresClient(url, {
      name: opts.applicationName ?? 'socialpub',
      init: `${schema === 'public' ? '' : `CREATE SCHEMA IF NOT EXISTS ${schema}; `}SET search_path TO ${schema}; SET statement_timeout = '30s'; SET lock_timeout = '10s'; SET idle_in_transaction_session_timeout = '60s'`,
    });
  }

  get open(): boolean {
    return this.#open && !this.client.closed;
  }

  get inTransaction(): boolean {
    return this.#depth > 0;
  }

  prepare(sql: string): PostgresStatement {
    const control = transactionControl(sql);
    if (control) return new PostgresStatement(this.client, { text: control, names: null, positional: 0, id: '' }, () => this.#control(control));
    let t = this.#translated.get(sql);
    if (!t) {
      t = { ...translateSql(sql), id: `s${++this.#statements}` };
      this.#translated.set(sql, t);
    }
    return new PostgresStatement(this.client, t);
  }

  exec(sql: string): this {
    const control = transactionControl(sql);
    if (control) this.#control(control);
    else this.client.exec(sql);
    return this;
  }

  /** BEGIN/COMMIT/ROLLBACK written as statements (the simulators' store), counted like transaction()'s. */
  #control(statement: string): void {
    this.client.exec(statement);
    this.#depth = statement === 'BEGIN' ? this.#depth + 1 : Math.max(0, this.#depth - 1);
  }

  /** SQLite's pragmas have no meaning here; the ones the store reads answer as SQLite's defaults would. */
  pragma(source: string, opts: { simple?: boolean } = {}): unknown {
    const name = source.split('=')[0]!.trim().toLowerCase();
    // synchronous 1 (NORMAL): nothing to relax per transaction (store/commits.ts, sandbox-store.ts).
    const value = name === 'journal_mode' ? 'postgres' : name === 'synchronous' ? 1 : null;
    return opts.simple ? value : [];
  }

  /**
   * `fn` in one transaction (a savepoint when nested), as better-sqlite3's `transaction`:
   * committed when it returns, rolled back when it throws. Its `immediate`/`exclusive`
   * forms are the same here: PostgreSQL takes row locks as statements write.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) & { immediate: (...args: A) => R; deferred: (...args: A) => R; exclusive: (...args: A) => R } {
    const run = (...args: A): R => {
      const nested = this.#depth > 0;
      const savepoint = `sp${this.#depth}`;
      // Neither is waited for: the next statement's answer comes after them (one round trip saved each).
      this.client.send(nested ? `SAVEPOINT ${savepoint}` : 'BEGIN');
      this.#depth++;
      let result: R;
      try {
        result = fn(...args);
      } catch (error) {
        this.#depth--;
        try {
          this.client.exec(nested ? `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}` : 'ROLLBACK');
        } catch {
          // The connection is gone: the server rolled the transaction back itself.
        }
        throw error;
      }
      this.#depth--;
      // COMMIT is waited for (the caller counts on it being done); a savepoint's release is not.
      if (nested) this.client.send(`RELEASE SAVEPOINT ${savepoint}`);
      else this.client.exec('COMMIT');
      return result;
    };
    return Object.assign(run, { immediate: run, deferred: run, exclusive: run });
  }

  /** Calls `fn` after each commit that NOTIFYs `channel` (from this daemon or any other). */
  listen(channel: string, fn: (payload: string) => void): () => void {
    return this.client.listen(channel, fn);
  }

  function(): never {
    throw new PostgresError('SQL functions defined in JavaScript exist on SQLite only', null, null);
  }

  close(): this {
    this.#open = false;
    this.client.close();
    return this;
  }
}

type Row = Record<string, unknown>;

export class PostgresStatement {
  #pluck = false;
  #raw = false;

  constructor(
    private readonly client: SyncPostgresClient,
    private readonly sql: TranslatedSql & { id: string },
    private readonly control?: () => void,
  ) {}

  get source(): string {
    return this.sql.text;
  }

  pluck(toggle = true): this {
    this.#pluck = toggle;
    if (toggle) this.#raw = false;
    return this;
  }

  raw(toggle = true): this {
    this.#raw = toggle;
    if (toggle) this.#pluck = false;
    return this;
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number } {
    if (this.control) {
      this.control();
      return { changes: 0, lastInsertRowid: 0 };
    }
    const r = this.#query(params);
    return { changes: r.rowCount, lastInsertRowid: 0 };
  }

  get(...params: unknown[]): unknown {
    const r = this.#query(params);
    return r.rows.length === 0 ? undefined : this.#shape(r.names, r.rows[0]!);
  }

  all(...params: unknown[]): unknown[] {
    const r = this.#query(params);
    return r.rows.map((row) => this.#shape(r.names, row));
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    yield* this.all(...params);
  }

  #shape(names: string[], row: unknown[]): unknown {
    for (let i = 0; i < row.length; i++) if (row[i] instanceof Uint8Array && !Buffer.isBuffer(row[i])) row[i] = Buffer.from(row[i] as Uint8Array);
    if (this.#pluck) return row[0];
    if (this.#raw) return row;
    const out: Row = {};
    for (let i = 0; i < names.length; i++) out[names[i]!] = row[i];
    return out;
  }

  #query(params: unknown[]) {
    return this.client.query(this.sql.text, this.#values(params), this.sql.id);
  }

  #values(params: unknown[]): unknown[] {
    const { names } = this.sql;
    if (names) {
      const bag = params[0];
      if (params.length !== 1 || bag === null || typeof bag !== 'object') throw new TypeError('this statement takes its parameters by name, as one object');
      return names.map((n) => {
        if (!(n in (bag as Row))) throw new RangeError(`Missing named parameter "${n}"`);
        return value((bag as Row)[n]);
      });
    }
    const flat = params.length === 1 && Array.isArray(params[0]) ? (params[0] as unknown[]) : params;
    if (flat.length !== this.sql.positional) throw new RangeError(`Too ${flat.length < this.sql.positional ? 'few' : 'many'} parameter values were provided`);
    return flat.map(value);
  }
}

/** `BEGIN [IMMEDIATE|DEFERRED|EXCLUSIVE]`, `COMMIT`/`END`, `ROLLBACK` as PostgreSQL spells them; null for anything else. */
function transactionControl(sql: string): 'BEGIN' | 'COMMIT' | 'ROLLBACK' | null {
  const s = sql.trim().replace(/;$/, '').toUpperCase();
  if (/^BEGIN( (IMMEDIATE|DEFERRED|EXCLUSIVE))?( TRANSACTION)?$/.test(s)) return 'BEGIN';
  if (/^(COMMIT|END)( TRANSACTION)?$/.test(s)) return 'COMMIT';
  if (/^ROLLBACK( TRANSACTION)?$/.test(s)) return 'ROLLBACK';
  return null;
}

function value(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  return v;
}

/** The URL without its password, for logs and `db.name`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres';
  }
}

/** Which database a store's connection is: SQLite (better-sqlite3) or PostgreSQL. */
export function dialectOf(db: Database.Database | PostgresDatabase): 'sqlite' | 'postgres' {
  return (db as { dialect?: string }).dialect === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * Runs one write of a larger transaction so that its failure undoes only its own
 * statements and the transaction goes on: a savepoint on PostgreSQL (where a failed
 * statement aborts the transaction); on SQLite the statement's own atomicity, unchanged.
 */
export function isolatedWrites(db: Database.Database | PostgresDatabase): <T>(fn: () => T) => T {
  if (dialectOf(db) === 'sqlite') return (fn) => fn();
  return (fn) => (db as PostgresDatabase).transaction(fn)();
}

export function isPostgresUrl(s: string | undefined | null): s is string {
  return typeof s === 'string' && /^postgres(ql)?:\/\//i.test(s);
}
