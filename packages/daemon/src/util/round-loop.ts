import type { Clock } from './clock';

/** A started loop of rounds. */
export interface RoundLoop {
  /** Starts the next round now: cuts a sleep short, or, during a round, starts the next one right after it. */
  kick(): void;
  /** Settles when the loop has ended (after `signal` aborts, at the end of the round running then). */
  done: Promise<void>;
}

/**
 * Runs `round`, then sleeps `intervalMs` on the clock, again and again until `signal` aborts.
 * A kick cuts the sleep short; a kick while a round runs (nothing to cut short yet) is kept,
 * and the next round starts as soon as this one ends, so work queued during a round never
 * waits a whole interval. A round that throws is reported to `onError` and the loop goes on.
 */
export function startRoundLoop(opts: { clock: Clock; intervalMs: number; signal: AbortSignal; round: () => Promise<void>; onError: (err: unknown) => void }): RoundLoop {
  let kicked = false;
  let wake: (() => void) | null = null;
  const done = (async () => {
    while (!opts.signal.aborted) {
      kicked = false;
      try {
        await opts.round();
      } catch (err) {
        opts.onError(err);
      }
      if (opts.signal.aborted || kicked) continue;
      const woken = new AbortController();
      wake = () => woken.abort();
      await opts.clock.sleep(opts.intervalMs, AbortSignal.any([opts.signal, woken.signal])).catch(() => {});
      wake = null;
    }
  })();
  return {
    kick() {
      kicked = true;
      wake?.();
    },
    done,
  };
}
