import { closeSync, fdatasync, fstatSync, openSync, statSync } from 'node:fs';
import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { CONFLICT_TRIES, conflictBackoffMs, isTransientConflict } from './transient-conflict';

/** How an accepted request reaches the disk: `full` (default) waits for it, `normal` does not. */
export type SqliteSync = 'full' | 'normal';

export interface Commits {
  readonly mode: SqliteSync;
  /**
   * Runs `fn` in one IMMEDIATE transaction and resolves once its commit is on disk (mode
   * `full`; with `normal`, once committed). Answer a request only after this resolves.
   */
  durable<T>(fn: () => T): Promise<T>;
  /**
   * Runs `fn` in one IMMEDIATE transaction committed with the connection's own setting
   * (FULL from openDatabase): durable once it returns, the fsync blocking the thread. For
   * one-shot processes with no other requests to serve (local admin commands, seeding);
   * the daemon answers requests only after `durable`.
   */
  durableBlocking<T>(fn: () => T): T;
  /**
   * Runs `fn` (one statement, or a transaction of its own) with synchronous=NORMAL: for
   * writes whose loss on power failure is harmless (rate counters, last-used times). The
   * next durable commit puts them on disk too.
   */
  relaxed<T>(fn: () => T): T;
  /** Releases the WAL file handle (call when the database closes). */
  close(): void;
}

/**
 * Durable commits without blocking the event loop, by group commit.
 *
 * With `synchronous=FULL`, SQLite fsyncs the WAL inside COMMIT, on the event loop: a
 * request's fsync (about 0.3 ms on a quiet SSD, several ms on a busy disk) stops every
 * other request. Here the transaction commits with `synchronous=NORMAL` (its frames are
 * written to the WAL, not yet synced), then the WAL file is fsynced on libuv's thread pool
 * and the caller awaits that: the same guarantee as FULL — the commit is on disk before the
 * response leaves — while the event loop goes on with other requests. The commits of one
 * turn of the event loop share one fsync; made while one runs, they get the next at once,
 * beside it (up to two at a time). An fsync makes every frame written before it durable
 * (WAL frames are checksummed in a chain, so recovery keeps exactly the synced prefix), and
 * a checkpoint under NORMAL syncs the WAL before copying it, so nothing is lost between.
 *
 * The connection's own setting (FULL from openDatabase) is restored after each commit, so
 * every other writer on it (the publisher's claims and outcomes) still commits with FULL.
 * In-memory databases have nothing to sync.
 */
/** Syncs a file on request. */
export interface FileSync {
  /** fsync of the file on libuv's thread pool; resolves at once when the file does not exist. */
  sync(): Promise<void>;
  close(): void;
}

/**
 * fsync of the WAL through a handle kept open between syncs (opening and closing it each
 * time would add two thread-pool round trips to every group commit). The WAL keeps its
 * inode while any connection is open — SQLite truncates or rewrites it, it only deletes it
 * when the last connection closes — but the handle is checked against the path before
 * each sync (one stat on the event loop) and reopened if the file was replaced, so a sync
 * can never go to a stale file. Syncs may run at once (createCommits runs up to two); a
 * handle given up while syncs run on it is closed when the last of them ends.
 */
export function walFileSync(path: string): FileSync {
  let fd: number | null = null;
  let ino = -1;
  /** Syncs running on each handle, and the handles given up that still have some. */
  const running = new Map<number, number>();
  const retired = new Set<number>();
  const release = () => {
    if (fd !== null) {
      if (running.has(fd)) retired.add(fd);
      else closeSync(fd);
    }
    fd = null;
    ino = -1;
  };
  const ended = (handle: number) => {
    const left = (running.get(handle) ?? 1) - 1;
    if (left > 0) {
      running.set(handle, left);
      return;
    }
    running.delete(handle);
    if (retired.delete(handle)) closeSync(handle);
  };
  return {
    sync() {
      let current: number;
      try {
        current = statSync(path).ino;
      } catch (error) {
        // No WAL file: the last checkpoint (synced) emptied and removed it; nothing is pending.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return Promise.reject(error as Error);
        release();
        return Promise.resolve();
      }
      if (fd === null || current !== ino) {
        release();
        fd = openSync(path, 'r');
        ino = fstatSync(fd).ino;
      }
      const handle = fd;
      running.set(handle, (running.get(handle) ?? 0) + 1);
      // fdatasync, as SQLite itself syncs the WAL: the data and the size, not the mtime (an
      // fsync would add a journal commit of the inode to every sync).
      return new Promise<void>((resolve, reject) =>
        fdatasync(handle, (error) => {
          ended(handle);
          if (error) reject(error);
          else resolve();
        }),
      );
    },
    close: release,
  };
}

/**
 * WAL syncs running at once at most: a commit made while one runs gets its own at once, a
 * second beside it, without filling libuv's thread pool (4 threads, shared with file reads
 * and DNS lookups) with syncs of one file.
 */
const MAX_SYNCS = 2;

/** `fileSync` is replaced in tests to watch the order of commits and syncs. */
export function createCommits(db: DB, mode: SqliteSync = 'full', fileSync: (path: string) => FileSync = walFileSync): Commits {
  const baseline = Number(db.pragma('synchronous', { simple: true }));
  // exec, not prepared statements: SQLite applies `PRAGMA synchronous = N` while compiling
  // it, so a statement prepared once does not reliably set it again when run.
  const relax = `PRAGMA synchronous = NORMAL`;
  const restore = `PRAGMA synchronous = ${baseline}`;
  // One wrapper, created once: db.transaction() per call costs more than the BEGIN and COMMIT.
  const transaction = db.transaction((fn: () => unknown) => fn());
  const immediate = <T>(fn: () => T): T => transaction.immediate(fn) as T;
  const walPath = `${db.name}-wal`;
  const hasWal = !db.memory && String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';

  function withNormal<T>(fn: () => T): T {
    // Inside an outer transaction the outer COMMIT decides; the setting is left alone. An
    // in-memory database syncs nothing either way.
    if (db.inTransaction || baseline <= 1 || db.memory) return fn();
    db.exec(relax);
    try {
      return fn();
    } finally {
      db.exec(restore);
    }
  }

  const wal = hasWal && mode === 'full' ? fileSync(walPath) : null;
  const syncWal = () => {
    if (!db.open) {
      wal?.close();
      return Promise.resolve();
    }
    return (wal as FileSync).sync();
  };

  let inFlight = 0;
  /** The sync the commits since the last one started will share (null: none asked for yet). */
  let queued: Promise<void> | null = null;
  const whenOneEnds: (() => void)[] = [];
  const start = (): Promise<void> => {
    inFlight++;
    return syncWal().finally(() => {
      inFlight--;
      for (const wake of whenOneEnds.splice(0)) wake();
    });
  };
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  /**
   * Resolves after an fsync that started after this call (a running one may have started
   * before our frames were written). With none running it starts at once. With one running
   * the next starts at the end of this turn of the event loop, beside it — not after it:
   * waiting for the running sync to end first made a commit wait for up to two syncs, and a
   * sync on a busy disk takes tens of ms (the tail of bench/lateness) — and every commit of
   * the turn shares it. With MAX_SYNCS running it starts a turn after one of them ends, so
   * that callers woken by it can commit again and join it.
   */
  const flush = (): Promise<void> => {
    if (inFlight === 0 && !queued) return start();
    queued ??= (inFlight < MAX_SYNCS ? nextTurn() : new Promise<void>((resolve) => whenOneEnds.push(resolve)).then(nextTurn)).then(() => {
      queued = null;
      return start();
    });
    return queued;
  };

  const postgres = dialectOf(db) === 'postgres';
  /**
   * PostgreSQL: a transaction that met a deadlock or serialization failure (a request's
   * edit against another daemon's publisher batch over the same job) was rolled back whole,
   * so it runs again, a few times, before its error goes to the caller (which answers 503
   * with Retry-After: http/app.ts). `fn` must only write through the store, as every
   * caller's does: what it did in the rolled-back try is gone.
   */
  const retried = async <T>(fn: () => T): Promise<T> => {
    for (let round = 1; ; round++) {
      try {
        return immediate(fn);
      } catch (error) {
        if (!isTransientConflict(error) || round >= CONFLICT_TRIES) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, conflictBackoffMs(round)));
    }
  };

  return {
    mode,
    async durable<T>(fn: () => T): Promise<T> {
      // Nested in an outer transaction, the outer one is what a conflict undoes: it decides.
      if (postgres && !db.inTransaction) return retried(fn);
      if (!hasWal || db.inTransaction) return immediate(fn);
      if (mode === 'normal') return withNormal(() => immediate(fn));
      const result = withNormal(() => immediate(fn));
      await flush();
      return result;
    },
    durableBlocking: immediate,
    relaxed: withNormal,
    close() {
      wal?.close();
    },
  };
}
