/**
 * Where the SDK gets the time and waits between retries and polls. Tests pass a fake one
 * so a Retry-After of 3 s or a poll backoff costs no real time. The deadline (`maxWait`) of a
 * wait that follows the event stream is not taken from it: events come in real time.
 */
export interface SdkClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with `signal.reason` as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: SdkClock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    signal?.throwIfAborted();
    try {
      // timers/promises when first waited on: a program that never waits (a CLI command) never loads it.
      await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, signal ? { signal } : undefined);
    } catch (error) {
      // timers/promises wraps the reason in its own AbortError; callers expect the reason itself, as fetch gives it.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  },
};
