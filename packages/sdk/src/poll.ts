import type { SdkClock } from './clock';
import { WaitTimeoutError } from './errors';

/** Options of `media.waitUntilReady()` and `scheduled.waitUntilDone()`. */
export interface WaitOptions<T> {
  /** Aborting stops waiting and rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Called with every state fetched, the last (terminal) one included. */
  onProgress?: ((state: T) => void) | undefined;
  /** First wait between polls, in ms; grows 1.5x per poll up to `maxInterval`. Default 1 000. */
  interval?: number | undefined;
  /** Longest wait between polls, in ms. Default 10 000. */
  maxInterval?: number | undefined;
  /** Give up after this many ms with a WaitTimeoutError carrying the last state. Default: wait as long as it takes. */
  maxWait?: number | undefined;
}

export const POLL_INTERVAL_MS = 1_000;
export const POLL_MAX_INTERVAL_MS = 10_000;
const POLL_GROWTH = 1.5;

/** Fetches `current()` until `done` holds, waiting with backoff in between. */
export async function pollUntil<T>(
  current: (signal: AbortSignal | undefined) => Promise<T>,
  done: (state: T) => boolean,
  what: string,
  options: WaitOptions<T>,
  clock: SdkClock,
): Promise<T> {
  const { signal } = options;
  const started = clock.now();
  const maxInterval = options.maxInterval ?? POLL_MAX_INTERVAL_MS;
  let wait = Math.min(options.interval ?? POLL_INTERVAL_MS, maxInterval);
  for (;;) {
    const state = await current(signal);
    options.onProgress?.(state);
    if (done(state)) return state;
    if (options.maxWait !== undefined && clock.now() - started + wait > options.maxWait) {
      throw new WaitTimeoutError(`${what} did not finish within ${options.maxWait} ms`, state);
    }
    await clock.sleep(wait, signal);
    wait = Math.min(wait * POLL_GROWTH, maxInterval);
  }
}
