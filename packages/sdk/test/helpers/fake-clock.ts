import type { SdkClock } from '@socialpub/sdk';

/**
 * A clock whose sleep returns at once and moves time forward, recording every wait, so
 * tests assert the exact backoff and Retry-After waits without spending them.
 */
export class FakeClock implements SdkClock {
  time = Date.UTC(2026, 11, 25, 10, 0, 0);
  readonly sleeps: number[] = [];
  /** Runs inside each sleep (e.g. to abort, or to move a daemon's ManualClock). */
  onSleep: ((ms: number) => void | Promise<void>) | undefined;

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.time += ms;
    await this.onSleep?.(ms);
    signal?.throwIfAborted();
  }
}

/** A FakeClock whose every wait lets the event loop turn once, so polls follow real work without time passing. */
export function eventLoopClock(): FakeClock {
  const clock = new FakeClock();
  clock.onSleep = () => new Promise<void>((resolve) => setImmediate(resolve));
  return clock;
}
