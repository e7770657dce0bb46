import type { Commits } from '../store/commits';
import { CONFLICT_TRIES, conflictBackoffMs, isTransientConflict } from '../store/transient-conflict';

interface PendingWrite {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The publisher's writes (claims, checkpoints, attempt ends) committed in batches: the
 * writes asked for in one turn of the event loop run together in one transaction, at the
 * end of the turn, and each caller resolves once that transaction is on disk. A burst of
 * a thousand claims is one commit (its pages written to the WAL once, one fsync) instead
 * of a thousand. Durability is unchanged: nobody goes on (sends, reports) before its write
 * is on disk.
 *
 * Each write keeps its own atomicity (a write that is a transaction runs as a savepoint;
 * one statement is atomic on its own), and one that throws rejects only its caller: the
 * others in the batch still commit.
 */
export class WriteBatch {
  readonly #commits: Pick<Commits, 'durable'>;
  readonly #transaction: (fn: () => void) => void;
  readonly #isolate: <T>(fn: () => T) => T;
  #pending: PendingWrite[] = [];
  #scheduled = false;

  /**
   * `transaction(fn)` runs fn in one immediate transaction; `commits.durable` puts it on disk;
   * `isolate(fn)` runs one write so that its failure undoes only its own statements (a
   * savepoint on PostgreSQL, where a failed statement aborts the whole transaction; on
   * SQLite a statement is atomic by itself, and nothing is added).
   */
  constructor(commits: Pick<Commits, 'durable'>, transaction: (fn: () => void) => void, isolate: <T>(fn: () => T) => T = (fn) => fn()) {
    this.#commits = commits;
    this.#transaction = transaction;
    this.#isolate = isolate;
  }

  /** Runs `fn` in the next batch; resolves with its result once the batch is on disk. */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      // At the end of this turn: writes asked for by every timer and I/O callback of the turn join.
      setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    for (let round = 1; ; round++) {
      try {
        await this.#commits.durable(() =>
          this.#transaction(() => {
            // From the start each time: durable may run this again itself after a conflict.
            results.length = 0;
            for (const w of batch) {
              try {
                results.push({ ok: true, value: batch.length === 1 ? w.fn() : this.#isolate(w.fn) });
              } catch (error) {
                // Another daemon's transaction and this one waited on each other (PostgreSQL
                // broke the cycle here): the whole batch is undone and written again.
                if (isTransientConflict(error) && round < CONFLICT_TRIES) throw new ConflictRetry(error);
                results.push({ ok: false, error });
              }
            }
          }),
        );
        break;
      } catch (error) {
        if ((error instanceof ConflictRetry || isTransientConflict(error)) && round < CONFLICT_TRIES) {
          await new Promise((r) => setTimeout(r, conflictBackoffMs(round)));
          continue;
        }
        // The commit itself failed (or its sync did): none of the batch can be counted on.
        for (const w of batch) w.reject(error instanceof ConflictRetry ? error.cause : error);
        return;
      }
    }
    batch.forEach((w, i) => {
      const r = results[i];
      if (r?.ok) w.resolve(r.value);
      else w.reject(r?.error);
    });
  }
}

class ConflictRetry extends Error {
  constructor(cause: unknown) {
    super('transient conflict', { cause });
  }
}
