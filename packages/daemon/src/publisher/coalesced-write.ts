import type { WriteBatch } from './write-batch';

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes of one kind asked for in one turn of the event loop (the claims of a burst, the
 * attempt ends of the moment), made as ONE call of `many` inside that turn's write batch:
 * each caller resolves with its own result once the batch is on disk, as with
 * `WriteBatch.run`. `many` gets the items in the order they were asked for and returns one
 * result per item, in the same order; it must be atomic (a transaction: a savepoint inside
 * the batch), since when it throws every caller of the call is rejected.
 */
export class CoalescedWrite<I, O> {
  readonly #writes: Pick<WriteBatch, 'run'>;
  readonly #many: (items: readonly I[]) => O[];
  #pending: Pending<I, O>[] = [];

  constructor(writes: Pick<WriteBatch, 'run'>, many: (items: readonly I[]) => O[]) {
    this.#writes = writes;
    this.#many = many;
  }

  /** Joins the next call of `many`; resolves with this item's result once it is on disk. */
  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      if (this.#pending.length === 1) this.#schedule();
    });
  }

  #schedule(): void {
    let taken: Pending<I, O>[] | null = null;
    const take = () => {
      const batch = this.#pending;
      this.#pending = [];
      return batch;
    };
    this.#writes
      .run(() => {
        // Everything asked for until the batch runs (the rest of this turn) joins this call.
        // Taken once: a batch undone by a conflict runs this again, with the same items.
        taken ??= take();
        return this.#many(taken.map((p) => p.item));
      })
      .then(
        (results) => (taken ?? []).forEach((p, i) => p.resolve(results[i] as O)),
        // The call failed, or its batch never ran or never reached the disk: nobody can count on it.
        (error: unknown) => (taken ?? take()).forEach((p) => p.reject(error)),
      );
  }
}
