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

/** Renews the lease on `id` every third of its length while the attempt runs. */
export function keepLease(terms: LeaseTerms, id: string, attemptSignal: AbortSignal): LeaseKeeper {
  const { clock, queue, owner, leaseMs } = terms;
  const ctl = new AbortController();
  let lost = false;
  const stopOnAbort = () => ctl.abort();
  attemptSignal.addEventListener('abort', stopOnAbort, { once: true });
  void (async () => {
    while (!ctl.signal.aborted) {
      try {
        await clock.sleep(Math.max(1, Math.floor(leaseMs / 3)), ctl.signal);
      } catch {
        return;
      }
      if (!queue.renewLease(id, owner, clock.now() + leaseMs)) {
        lost = true;
        return;
      }
    }
  })();
  return {
    stop: () => {
      attemptSignal.removeEventListener('abort', stopOnAbort);
      ctl.abort();
    },
    lost: () => lost,
  };
}
