import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/**
 * A PostgreSQL connection the store can call synchronously, as it calls better-sqlite3.
 *
 * node-postgres (`pg`) runs in a thread of its own with one connection. A query is posted
 * to that thread and this one waits on a shared flag (`Atomics.wait`) until the answer is
 * in its port, then reads it with `receiveMessageOnPort`: the same pattern synckit uses,
 * kept here so the worker is one eval'd string (the bundled CLI needs no worker file).
 * Waiting costs no CPU; the event loop is held for the round trip, as it is held by a
 * SQLite statement (docs/scaling.md "PostgreSQL": why, and what it costs).
 *
 * Notifications (`LISTEN`) arrive asynchronously, on the event loop, through `listen`.
 */

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pg);
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const notices = workerData.notices;
const INT8 = 20, NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
// JSON stays text, as SQLite gives it (the store parses what it reads).
pg.types.setTypeParser(114, (v) => v);
pg.types.setTypeParser(3802, (v) => v);
const channels = new Set();
// Session advisory locks this connection took (leadership): taken again on a new connection,
// or reported lost (another session has them now).
const locks = new Set();
let client = null;
let broken = null;
let ready = null;
// A connection that broke (the server restarted, the network dropped) is replaced on the
// next statement: that statement fails or waits for the new one; nothing is retried blindly.
const connect = () => {
  const c = new pg.Client({ connectionString: workerData.url, application_name: workerData.name });
  client = c;
  broken = null;
  c.on('error', (e) => { if (client === c) broken = e; });
  c.on('notification', (n) => notices.postMessage({ channel: n.channel, payload: n.payload ?? '' }));
  ready = c.connect()
    .then(() => c.query(workerData.init))
    .then(async () => { for (const ch of channels) await c.query('LISTEN "' + ch.replaceAll('"', '""') + '"'); })
    .then(async () => {
      for (const key of [...locks]) {
        const r = await c.query('SELECT pg_try_advisory_lock($1) AS ok', [key]);
        if (r.rows[0].ok !== true) { locks.delete(key); notices.postMessage({ channel: 'socialpub:lock-lost', payload: String(key) }); }
      }
    })
    .catch((e) => { if (client === c) broken = e; c.end().catch(() => {}); });
};
connect();
// The answer first, then the flag set to the call's number: a waiter that sees its number finds
// its answer in the port (a notify meant for an earlier call only makes it look again).
const answer = (seq, m) => { port.postMessage(m); Atomics.store(flag, 0, seq); Atomics.notify(flag, 0); };
const fail = (seq, e) => answer(seq, { error: { message: e.message, code: e.code ?? null, detail: e.detail ?? null } });
// A statement sent without waiting (send): its error, if any, is the next answered call's.
let sentError = null;
// One statement at a time, in the order they came (a send is not waited for by the caller,
// but the next message still runs after it).
let chain = Promise.resolve();
const handle = async (m) => {
  if (broken && m.op !== 'close') connect();
  await ready;
  if (m.op === 'send') {
    if (!broken) await client.query(m.text).catch((e) => { sentError ??= e; });
    return;
  }
  if (broken) return fail(m.seq, broken);
  // A rollback still runs (it ends what the failed statement left); anything else reports the failure.
  if (sentError && !(m.op === 'exec' && m.text.startsWith('ROLLBACK'))) { const e = sentError; sentError = null; return fail(m.seq, e); }
  sentError = null;
  try {
    if (m.op === 'query') {
      const r = await client.query(m.name ? { name: m.name, text: m.text, values: m.values, rowMode: 'array' } : { text: m.text, values: m.values, rowMode: 'array' });
      if (r.rows[0] && r.rows[0][0] === true && m.text.includes('pg_try_advisory_lock(')) locks.add(m.values[0]);
      answer(m.seq, { names: r.fields.map((f) => f.name), rows: r.rows, rowCount: r.rowCount ?? 0 });
    } else if (m.op === 'exec') {
      await client.query(m.text);
      const listen = /^LISTEN "(.*)"$/.exec(m.text);
      if (listen) channels.add(listen[1].replaceAll('""', '"'));
      answer(m.seq, { names: [], rows: [], rowCount: 0 });
    } else if (m.op === 'close') {
      await client.end().catch(() => {});
      answer(m.seq, { names: [], rows: [], rowCount: 0 });
      port.close();
      notices.close();
    }
  } catch (e) { fail(m.seq, e); }
};
port.on('message', (m) => { chain = chain.then(() => handle(m)); });
`;

export interface QueryResult {
  names: string[];
  rows: unknown[][];
  rowCount: number;
}

/** An error PostgreSQL (or the connection) gave; `code` is the SQLSTATE when there is one. */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly detail: string | null,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

/** How long one statement may hold this thread before the call gives up (the server's statement_timeout is shorter). */
const WAIT_LIMIT_MS = 60_000;

export interface SyncClientOptions {
  /** application_name, seen in pg_stat_activity. */
  name?: string;
  /** SQL run once the connection is open (search_path, timeouts). */
  init?: string;
  /** The flag the worker answers on (Int32Array over a SharedArrayBuffer); tests pass theirs to notify it from another thread too. */
  flag?: Int32Array;
}

export class SyncPostgresClient {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #notices: MessagePort;
  readonly #flag: Int32Array;
  /** The number of the last call (the flag holds the number of the last one answered). */
  #seq = 0;
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #closed = false;

  constructor(url: string, opts: SyncClientOptions = {}) {
    this.#flag = opts.flag ?? new Int32Array(new SharedArrayBuffer(4));
    const pgModule = resolvePg();
    const { port1, port2 } = new MessageChannel();
    const notices = new MessageChannel();
    this.#port = port1;
    this.#notices = notices.port1;
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        pg: pgModule,
        url,
        name: opts.name ?? 'socialpub',
        init: opts.init ?? 'SELECT 1',
        flag: this.#flag.buffer,
        port: port2,
        notices: notices.port2,
      },
      transferList: [port2, notices.port2],
    });
    // Neither keeps the process alive: the database is closed with the daemon.
    this.#worker.unref();
    this.#notices.on('message', (n: { channel: string; payload: string }) => {
      for (const fn of this.#listeners.get(n.channel) ?? []) fn(n.payload);
    });
    this.#notices.unref();
  }

  /** Runs one statement; `name` makes it a prepared statement of this connection. */
  query(text: string, values: readonly unknown[] = [], name?: string): QueryResult {
    return this.#call({ op: 'query', text, values, name });
  }

  /** Runs SQL without parameters, several statements allowed. */
  exec(text: string): void {
    this.#call({ op: 'exec', text });
  }

  /**
   * Sends SQL without waiting for its answer (BEGIN, SAVEPOINT, RELEASE: statements that
   * do not fail in a healthy transaction): the connection runs it before whatever comes
   * next, and an error it gave is thrown by the next call that waits.
   */
  send(text: string): void {
    if (this.#closed) throw new PostgresError('the database connection is closed', null, null);
    this.#port.postMessage({ op: 'send', text });
  }

  /**
   * Calls `fn` with the payload of every NOTIFY on `channel` (after the notifying commit).
   * `socialpub:lock-lost` is this client's own: a session advisory lock it held could not be
   * taken again after the connection was replaced (the payload is the key).
   */
  listen(channel: string, fn: (payload: string) => void): () => void {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      if (!channel.startsWith('socialpub:')) this.exec(`LISTEN ${quoteIdent(channel)}`);
      this.#notices.ref();
    }
    set.add(fn);
    return () => {
      set.delete(fn);
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    try {
      this.#call({ op: 'close' });
    } finally {
      this.#closed = true;
      this.#notices.close();
      void this.#worker.terminate();
    }
  }

  #call(message: Record<string, unknown>): QueryResult {
    if (this.#closed) throw new PostgresError('the database connection is closed', null, null);
    // Each call has its number (never 0, the flag's first value); the worker sets the flag to
    // it once the answer is in the port. Waiting for the number, not for any change, matters:
    // the worker sets the flag, then notifies; when this thread has read that answer (the
    // flag already set) and waits for its next one before that notify runs, the late notify
    // wakes it with nothing in the port. Waiting for "not 0" took that for no answer and
    // closed a healthy connection (CI, on a loaded machine).
    const seq = (this.#seq = (this.#seq % 0x7fff_ffff) + 1);
    this.#port.postMessage({ ...message, seq });
    const deadline = performance.now() + WAIT_LIMIT_MS;
    for (let seen = Atomics.load(this.#flag, 0); seen !== seq; seen = Atomics.load(this.#flag, 0)) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.#flag, 0, seen, left);
    }
    const answered = Atomics.load(this.#flag, 0) === seq;
    const reply = answered ? (receiveMessageOnPort(this.#port)?.message as (QueryResult & { error?: undefined }) | { error: { message: string; code: string | null; detail: string | null } } | undefined) : undefined;
    if (!reply) {
      // A late answer would be read as the next statement's: this connection is done.
      this.#closed = true;
      void this.#worker.terminate();
      throw new PostgresError(answered ? 'PostgreSQL gave no answer' : `PostgreSQL did not answer within ${WAIT_LIMIT_MS / 1000} s`, null, null);
    }
    if (reply.error) throw new PostgresError(reply.error.message, reply.error.code, reply.error.detail);
    return reply;
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Where node-postgres is: beside this code (npm install); the single executable carries none. */
function resolvePg(): string {
  try {
    return createRequire(import.meta.url).resolve('pg');
  } catch (error) {
    throw new PostgresError(
      'PostgreSQL needs node-postgres (the npm package pg), which the single executable does not carry: install socialpub from npm for PostgreSQL, or use SQLite (no database URL)',
      null,
      String((error as Error).message),
    );
  }
}
