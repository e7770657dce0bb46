import type { MiddlewareHandler } from 'hono';
import { checkSync, type SandboxStore } from '../../../store/sandbox-store';
import { awaitCommitBeforeAnswer } from './sandbox-caller';
import { simCodes, type SimCodes } from './sim-codes';
import { simWindows, type HeldWindow, type SimWindows } from './sim-windows';

/**
 * A simulator's state kept in SQLite (table sandbox_state), so `socialpub down && up`
 * continues where it stopped: ids never repeat, posts and duplicate memory survive, uploads
 * in progress and rate windows carry on. Everything is held in memory and written through
 * on every change; without a database (tests) it is memory only. When several daemons'
 * simulators share one PostgreSQL database, each process also takes in what the others
 * wrote since (catchUpOnSharedState, before every simulator request), so they read one world.
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
   * Single-use, expiring codes (OAuth authorization codes), read from the store on each
   * exchange rather than held in memory: one daemon's consent page, another's token
   * endpoint, one exchange (sim-codes.ts, table sandbox_codes).
   */
  codes<V extends { expiresAt: number }>(kind: string): SimCodes<V>;
  /**
   * Rate windows: a map of `kind` on one process; one upsert a call in the database when
   * several processes share the state, so their calls together never pass a window's limit
   * (sim-windows.ts, table sandbox_windows).
   */
  windows(kind: string): SimWindows;
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
 * Before each simulator request: when other processes' simulators share the store
 * (PostgreSQL), the entries they wrote or removed since the last request are taken into
 * this process's maps (SandboxStateRepository.catchUp), so a post, an idempotency key or a
 * token another daemon's simulator made is found here as it would be on the one platform.
 * On SQLite (one process) nothing is done.
 */
export function catchUpOnSharedState(store: SandboxStore | null): MiddlewareHandler {
  return async (_c, next) => {
    if (store?.state.shared) store.state.catchUp();
    await next();
  };
}

/**
 * One transaction around `fn` in the simulators' store (SandboxStore.atomically, see
 * SimState.atomically); without a store it just runs `fn`.
 */
export function atomicWrites<T>(store: SandboxStore | null, fn: () => T): T {
  if (!store) return checkSync(fn());
  try {
    return store.atomically(fn);
  } finally {
    awaitCommitBeforeAnswer(store.pendingCommit());
  }
}

/**
 * Told of an entry another process's simulators changed (`value` undefined: removed), after
 * the map holds it, with what the map held before: a simulator keeping an index of a map's
 * entries (X's posts by user) mends it here.
 */
export type OutsideChange<V> = (key: string, value: V | undefined, previous: V | undefined) => void;

/** A Map whose entries are written to the simulator's state by `flush()` once read or set and changed. */
export class TrackedMap<V> extends Map<string, V> {
  readonly #touched = new Set<string>();
  readonly #written = new Map<string, string>();
  readonly #listeners: OutsideChange<V>[] = [];
  #write: (key: string, value: V | undefined) => void = () => undefined;

  /** Calls `listener` for every entry another process changes (SandboxStateRepository.catchUp). */
  onOutsideChange(listener: OutsideChange<V>): void {
    this.#listeners.push(listener);
  }

  /** Takes an entry as another process wrote it: held, and not written back. */
  applyOutside(key: string, value: V | undefined): void {
    const previous = super.get(key);
    if (value === undefined) {
      super.delete(key);
      this.#written.delete(key);
    } else {
      super.set(key, value);
      this.#written.set(key, JSON.stringify(value));
    }
    for (const l of this.#listeners) l(key, value, previous);
  }

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
  readonly #listeners: OutsideChange<V>[] = [];

  constructor(
    loaded: Iterable<[string, V]>,
    private readonly write: (key: string, value: V | undefined) => void,
    /** Shared state only (SandboxStateRepository.claim): writes the entry unless another process has, and answers the one that stands. */
    private readonly claimer: ((key: string, value: V) => V) | null = null,
  ) {
    for (const [k, v] of loaded) this.#entries.set(k, v);
  }

  /**
   * The entry at `key`, made `value` when there is none. In one process that is `set`; when
   * several processes' simulators share the state, the database's key decides: the first to
   * write it wins, and every other process gets and holds the winner's value (with what the
   * winner wrote beside it), so two daemons making one connection's account at the same
   * moment make one. Compare the answer with `value` to know whether this call made it.
   */
  claim(key: string, value: V): V {
    const held = this.#entries.get(key);
    if (held !== undefined) return held;
    if (!this.claimer) {
      this.set(key, value);
      return value;
    }
    const stood = this.claimer(key, value);
    this.#entries.set(key, stood);
    return stood;
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

  /** Calls `listener` for every entry another process changes (SandboxStateRepository.catchUp). */
  onOutsideChange(listener: OutsideChange<V>): void {
    this.#listeners.push(listener);
  }

  /** Takes an entry as another process wrote it (undefined: removed): held, and not written back. */
  applyOutside(key: string, value: V | undefined): void {
    const previous = this.#entries.get(key);
    if (value === undefined) this.#entries.delete(key);
    else this.#entries.set(key, value);
    for (const l of this.#listeners) l(key, value, previous);
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

/** The state of one simulator (`x`, `youtube`, `meta`, `tiktok`), persisted in the simulators' store (sandbox_state) when given. */
export function simState(store: SandboxStore | null, simulator: string): SimState {
  if (!store) {
    return {
      map: <V>() => new SimMap<V>([], () => undefined),
      counter(_name, first) {
        let next = first;
        return () => next++;
      },
      tracked: <V>() => TrackedMap.of<V>([], () => undefined),
      codes: <V extends { expiresAt: number }>(kind: string) => simCodes<V>(null, simulator, kind, (fn) => atomicWrites(null, fn)),
      windows: () => simWindows(new SimMap<HeldWindow>([], () => undefined)),
      atomically: (fn) => atomicWrites(null, fn),
    };
  }
  const state = store.state;
  // Each write outside `atomically` is a transaction of its own, committed as atomically does (no fsync on the event loop).
  const writer =
    (kind: string) =>
    (key: string, value: unknown): void =>
      atomicWrites(store, () => state.write(simulator, kind, key, value));
  const read = (kind: string) => state.read(simulator, kind);
  // Several daemons over one PostgreSQL database: each map also takes what the other
  // processes' simulators write to it (store.state.catchUp, before each request).
  const followed = <M extends { applyOutside(key: string, value: never): void }>(kind: string, map: M): M => {
    if (state.shared) state.follow(simulator, kind, (key, value) => map.applyOutside(key, value as never));
    return map;
  };
  return {
    map<V>(kind: string) {
      if (kind === COUNTERS) throw new Error(`${COUNTERS} is reserved`);
      const claimer = state.shared ? (key: string, value: V) => atomicWrites(store, () => state.claim(simulator, kind, key, value) as V) : null;
      return followed(kind, new SimMap<V>(read(kind) as Array<[string, V]>, writer(kind), claimer));
    },
    tracked<V>(kind: string) {
      if (kind === COUNTERS) throw new Error(`${COUNTERS} is reserved`);
      return followed(kind, TrackedMap.of<V>(read(kind) as Array<[string, V]>, writer(kind)));
    },
    codes: <V extends { expiresAt: number }>(kind: string) => simCodes<V>(store, simulator, kind, (fn) => atomicWrites(store, fn)),
    windows(kind) {
      if (state.shared) return simWindows(new SimMap<HeldWindow>([], () => undefined), { store, simulator, prefix: `${kind}/` });
      return simWindows(new SimMap<HeldWindow>(read(kind) as Array<[string, HeldWindow]>, writer(kind)));
    },
    counter(name, first) {
      // Several daemons' simulators over one PostgreSQL database: each value taken from its
      // sequence there, which no transaction holds (SandboxStateRepository.sharedCounter).
      if (state.shared) return state.sharedCounter(simulator, COUNTERS, name, first);
      const stored = read(COUNTERS).find(([k]) => k === name)?.[1];
      let next = typeof stored === 'string' ? BigInt(stored) : first;
      return () => {
        const value = next++;
        atomicWrites(store, () => state.write(simulator, COUNTERS, name, String(next)));
        return value;
      };
    },
    atomically: (fn) => atomicWrites(store, fn),
  };
}
