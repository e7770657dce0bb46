import type { TargetQueue } from '../store/target-queue';
import type { Clock } from '../util/clock';

/** Thrown when a write conditional on the lease finds it held by another owner. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`the lease on ${id} was taken over`);
    this.name = 'LeaseLostError';
  }
}

export interface LeaseTerms {
  queue: Pick<TargetQueue, 'renewLease'>;
  clock: Clock;
  owner: string;
  leaseMs: number;
}

export interface LeaseKeeper {
  stop(): void;
  /** True once a renewal found the lease held by another owner. */
  lost(): boolean;
}

interface Held {
  signal: AbortSignal;
  lost: boolean;
}

/**
 * Keeps the leases of the attempts in flight: one loop renews every held lease each third
 * of the lease's length, for as long as any is held (no timer while none is). A lease
 * added just before a round is renewed early, never later than a third of its length after
 * it was taken. One loop for all (instead of a timer and an abort listener per attempt)
 * keeps a burst of thousands of attempts cheap.
 */
export class LeaseBook {
  readonly #terms: LeaseTerms;
  readonly #held = new Map<string, Held>();
  #loop: AbortController | null = null;

  constructor(terms: LeaseTerms) {
    this.#terms = terms;
  }

  /** Renews the lease on `id` until stopped, or until `attemptSignal` aborts (the attempt is given up). */
  hold(id: string, attemptSignal: AbortSignal): LeaseKeeper {
    const held: Held = { signal: attemptSignal, lost: false };
    this.#held.set(id, held);
    if (!this.#loop) this.#start();
    return {
      stop: () => {
        if (this.#held.get(id) !== held) return;
        this.#held.delete(id);
        if (this.#held.size === 0) this.#stopLoop();
      },
      lost: () => held.lost,
    };
  }

  #start(): void {
    const ctl = new AbortController();
    this.#loop = ctl;
    const { clock, queue, owner, leaseMs } = this.#terms;
    void (async () => {
      while (!ctl.signal.aborted) {
        try {
          await clock.sleep(Math.max(1, Math.floor(leaseMs / 3)), ctl.signal);
        } catch {
          return;
        }
        const until = clock.now() + leaseMs;
        for (const [id, held] of this.#held) {
          // An attempt given up (shutdown) keeps its lease as it is, for recovery to take when it runs out.
          if (held.signal.aborted || !queue.renewLease(id, owner, until)) {
            held.lost = !held.signal.aborted;
            this.#held.delete(id);
          }
        }
        if (this.#held.size === 0) this.#stopLoop();
      }
    })();
  }

  #stopLoop(): void {
    this.#loop?.abort();
    this.#loop = null;
  }
}
