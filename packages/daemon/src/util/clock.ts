/**
 * The one source of time. Everything that waits or compares times takes a Clock, so
 * tests move time with ManualClock.advance() instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds UTC. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/** A clock that only moves when told. Sleepers wake in time order as it advances. */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2026, 11, 25, 9, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = { at: this.#now + Math.max(0, ms), seq: this.#seq++, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Number of pending sleepers (lets a test wait until the code under test is parked). */
  get pending(): number {
    return this.#sleepers.length;
  }

  /**
   * Moves time forward by `ms`, waking each sleeper at its own time and letting the
   * promise jobs it starts run before moving on, so chains of sleeps behave as in real time.
   */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      this.#sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#sleepers[0];
      if (!next || next.at > end) break;
      this.#sleepers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
    }
    this.#now = end;
    await flushMicrotasks();
  }

  /** Sets the time without waking anyone (for tests that only compare times). */
  set(ms: number): void {
    this.#now = ms;
  }
}

/** Lets pending promise callbacks (and I/O already completed) run. */
export async function flushMicrotasks(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
