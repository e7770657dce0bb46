import type { DB } from '../../../store/database';

/**
 * A simulator's state kept in SQLite (table sandbox_state), so `socialpub down && up`
 * continues where it stopped: ids never repeat, posts and duplicate memory survive, uploads
 * in progress and rate windows carry on. Everything is held in memory and written through
 * on every change; without a database (tests) it is memory only.
 *
 * A change that makes something on the platform (a post, a video, a published container)
 * and the state saying it was made must reach the disk together, as on a real platform:
 * run the writes in `atomically(...)`, which puts them, and every other statement on the
 * same connection meanwhile (the sandbox_posts sink), in one SQLite transaction. A SIGKILL
 * then leaves either all of it or none of it, never a post whose upload session or
 * container still says it is to be made (docs/platforms/simulators.md).
 */
export interface SimState {
  /** A persisted map of JSON values, one per `kind`. Mutating a value needs a `set()` to persist it. */
  map<V>(kind: string): SimMap<V>;
  /** A persisted sequence starting at `first`; never hands out the same value twice, across restarts too. */
  counter(name: string, first: bigint): () => bigint;
  /**
   * A persisted Map for simulators that change entries in place: every entry read or set is
   * remembered, and `flush()` (after each request) writes those whose JSON changed.
   */
  tracked<V>(kind: string): TrackedMap<V>;
  /**
   * Runs `fn` (synchronous) with every write it makes to this state, and every other
   * statement on the same database connection (sandboxPostSink, sandboxPostRemoval), in
   * one SQLite transaction. The transaction commits even when `fn` throws, so what is on
   * disk always matches what the simulator holds in memory; a process killed inside `fn`
   * leaves none of its writes. Inside another `atomically` (or any open transaction) it
   * joins that one. Without a database it just runs `fn`.
   */
  atomically<T>(fn: () => T): T;
}

/**
 * One transaction around `fn` on `db` (see SimState.atomically): BEGIN IMMEDIATE, then
 * COMMIT whether `fn` returns or throws; joins an open transaction. `fn` must not be async:
 * a transaction cannot span an await (other requests would write into it).
 *
 * It commits with synchronous=NORMAL, as the daemon's relaxed writes do (store/commits.ts):
 * committed, so a killed process keeps it, without an fsync holding the event loop on every
 * simulated request. The WAL keeps commits in order and the daemon's next durable commit
 * syncs every frame before its own, so no record of the daemon that follows a simulated post
 * can outlive the post, even on power loss.
 */
export function atomicWrites<T>(db: DB | null, fn: () => T): T {
  if (!db || db.inTransaction) return checkSync(fn());
  const baseline = Number(db.pragma('synchronous', { simple: true }));
  if (baseline > 1 && !db.memory) db.exec('PRAGMA synchronous = NORMAL');
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      return checkSync(fn());
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    if (baseline > 1 && !db.memory) db.exec(`PRAGMA synchronous = ${baseline}`);
  }
}

function checkSync<T>(value: T): T {
  if (value instanceof Promise) throw new TypeError('atomically(fn): fn must be synchronous (a transaction cannot span an await)');
  return value;
}

/** A Map whose entries are written to the simulator's state by `flush()` once read or set and changed. */
export class TrackedMap<V> extends Map<string, V> {
  readonly #touched = new Set<string>();
  readonly #written = new Map<string, string>();
  #write: (key: string, value: V | undefined) => void = () => undefined;

  static of<V>(loaded: Iterable<[string, V]>, write: (key: string, value: V | undefined) => void): TrackedMap<V> {
    const map = new TrackedMap<V>();
    for (const [k, v] of loaded) {
      map.set(k, v);
      map.#written.set(k, JSON.stringify(v));
    }
    map.#touched.clear();
    map.#write = write;
    return map;
  }

  override get(key: string): V | undefined {
    this.#touched.add(key);
    return super.get(key);
  }

  override set(key: string, value: V): this {
    this.#touched.add(key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    this.#touched.delete(key);
    if (this.#written.delete(key)) this.#write(key, undefined);
    return had;
  }

  /** Writes every entry read or set since the last flush whose JSON changed. */
  flush(): void {
    for (const key of this.#touched) {
      const value = super.get(key);
      if (value === undefined) continue;
      const json = JSON.stringify(value);
      if (this.#written.get(key) === json) continue;
      this.#written.set(key, json);
      this.#write(key, value);
    }
    this.#touched.clear();
  }
}

export class SimMap<V> {
  readonly #entries = new Map<string, V>();

  constructor(
    loaded: Iterable<[string, V]>,
    private readonly write: (key: string, value: V | undefined) => void,
  ) {
    for (const [k, v] of loaded) this.#entries.set(k, v);
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  set(key: string, value: V): this {
    this.#entries.set(key, value);
    this.write(key, value);
    return this;
  }

  delete(key: string): boolean {
    const had = this.#entries.delete(key);
    if (had) this.write(key, undefined);
    return had;
  }

  /** Drops an entry from memory only: a write whose transaction was rolled back never reached the database. */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }

  entries(): IterableIterator<[string, V]> {
    return this.#entries.entries();
  }

  get size(): number {
    return this.#entries.size;
  }
}

const COUNTERS = '#counter';

/** The state of one simulator (`x`, `youtube`, `meta`, `tiktok`), persisted in `db` when given. */
export function simState(db: DB | null, simulator: string): SimState {
  if (!db) {
    return {
      map: <V>() => new SimMap<V>([], () => undefined),
      counter(_name, first) {
        let next = first;
        return () => next++;
      },
      tracked: <V>() => TrackedMap.of<V>([], () => undefined),
      atomically: (fn) => atomicWrites(null, fn),
    };
  }
  const load = db.prepare<[string, string], { key: string; value: string }>('SELECT key, value FROM sandbox_state WHERE simulator = ? AND kind = ?');
  const upsert = db.prepare('INSERT INTO sandbox_state (simulator, kind, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (simulator, kind, key) DO UPDATE SET value = excluded.value');
  const remove = db.prepare('DELETE FROM sandbox_state WHERE simulator = ? AND kind = ? AND key = ?');
  // Each write outside `atomically` is a transaction of its own, committed as atomically does (no fsync on the event loop).
  const writer =
    (kind: string) =>
    (key: string, value: unknown): void =>
      atomicWrites(db, () => {
        if (value === undefined) remove.run(simulator, kind, key);
        else upsert.run(simulator, kind, key, JSON.stringify(value));
      });
  const read = (kind: string) => load.all(simulator, kind).map((r) => [r.key, JSON.parse(r.value)] as [string, unknown]);
  return {
    map<V>(kind: string) {
      if (kind === COUNTERS) throw new Error(`${COUNTERS} is reserved`);
      return new SimMap<V>(read(kind) as Array<[string, V]>, writer(kind));
    },
    tracked<V>(kind: string) {
      if (kind === COUNTERS) throw new Error(`${COUNTERS} is reserved`);
      return TrackedMap.of<V>(read(kind) as Array<[string, V]>, writer(kind));
    },
    counter(name, first) {
      const stored = read(COUNTERS).find(([k]) => k === name)?.[1];
      let next = typeof stored === 'string' ? BigInt(stored) : first;
      return () => {
        const value = next++;
        atomicWrites(db, () => upsert.run(simulator, COUNTERS, name, JSON.stringify(String(next))));
        return value;
      };
    },
    atomically: (fn) => atomicWrites(db, fn),
  };
}
