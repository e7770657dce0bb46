import { close, fsync, open } from 'node:fs';
import type { DB } from './database';

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
   * Runs `fn` (one statement, or a transaction of its own) with synchronous=NORMAL: for
   * writes whose loss on power failure is harmless (rate counters, last-used times). The
   * next durable commit puts them on disk too.
   */
  relaxed<T>(fn: () => T): T;
}

/**
 * Durable commits without blocking the event loop, by group commit.
 *
 * With `synchronous=FULL`, SQLite fsyncs the WAL inside COMMIT, on the event loop: a
 * request's fsync (about 0.3 ms on a quiet SSD, several ms on a busy disk) stops every
 * other request. Here the transaction commits with `synchronous=NORMAL` (its frames are
 * written to the WAL, not yet synced), then the WAL file is fsynced on libuv's thread pool
 * and the caller awaits that: the same guarantee as FULL — the commit is on disk before the
 * response leaves — while the event loop goes on with other requests. Commits made while
 * one fsync runs share the next one. An fsync makes every frame written before it durable
 * (WAL frames are checksummed in a chain, so recovery keeps exactly the synced prefix), and
 * a checkpoint under NORMAL syncs the WAL before copying it, so nothing is lost between.
 *
 * The connection's own setting (FULL from openDatabase) is restored after each commit, so
 * every other writer on it (the publisher's claims and outcomes) still commits with FULL.
 * In-memory databases have nothing to sync.
 */
/** fsync of a file by path on libuv's thread pool; a missing file has nothing to sync. */
export function fsyncFile(path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    open(path, 'r', (openError, fd) => {
      // No WAL file: the last checkpoint (synced) emptied and removed it; nothing is pending.
      if (openError) return openError.code === 'ENOENT' ? resolve() : reject(openError);
      fsync(fd, (syncError) => close(fd, () => (syncError ? reject(syncError) : resolve())));
    });
  });
}

/** `syncFile` is replaced in tests to watch the order of commits and syncs. */
export function createCommits(db: DB, mode: SqliteSync = 'full', syncFile: (path: string) => Promise<void> = fsyncFile): Commits {
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

  const syncWal = () => syncFile(walPath);

  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const p: Promise<void> = syncWal().finally(() => {
      if (running === p) running = null;
    });
    running = p;
    return p;
  };
  /** Resolves after an fsync that started after this call (the running one may have started before our frames were written). */
  const flush = (): Promise<void> => {
    if (!running) return start();
    queued ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = null;
        return running ?? start();
      });
    return queued;
  };

  return {
    mode,
    async durable<T>(fn: () => T): Promise<T> {
      if (!hasWal || db.inTransaction) return immediate(fn);
      if (mode === 'normal') return withNormal(() => immediate(fn));
      const result = withNormal(() => immediate(fn));
      await flush();
      return result;
    },
    relaxed: withNormal,
  };
}
