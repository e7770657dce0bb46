import type { SocialpubEvent } from '@socialpub/core';
import { systemClock } from './clock';
import { NotFoundError, WaitTimeoutError } from './errors';
import type { WaitOptions } from './poll';

/** What following a job or a media task needs. */
export interface FollowDeps<T> {
  /** Reads the state (one counted request). */
  read(signal: AbortSignal): Promise<T>;
  /** GET /events with the filter that finds the state's events (one counted request of the events class per stream opened). */
  stream(params: { signal: AbortSignal; onOpen: () => void }): AsyncGenerator<SocialpubEvent, void, undefined>;
  /** The state as an event leaves it (the same object when the event changes nothing). */
  apply(state: T, event: SocialpubEvent): T;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Follows a job or a media task on the event stream until `done` holds, and resolves with
 * the state as the daemon then shows it. Its cost does not grow with the wait: one stream
 * (resumed after a drop without missing an event), one read once the stream is open, and
 * one read when the events say it is done — 3 counted requests, where polling spent the
 * scheduled-content class's 100 an hour in minutes (issue 35). In between, `onProgress`
 * gets the state as each event leaves it (`apply`). Against a daemon without GET /events
 * (404, or an answer that is not an event stream) it resolves `undefined`: the caller polls instead.
 *
 * `maxWait` is real time here, whatever clock the client was given: the events come when the
 * daemon's work is done, not when a clock says. A client's clock paces the pauses the SDK
 * chooses (retries, polls, reconnections); a test's clock that passes them at once would pass
 * a deadline taken from it at once too, and every wait with `maxWait` would time out before
 * its stream opened.
 */
export async function followEvents<T>(deps: FollowDeps<T>, what: string, done: (state: T) => boolean, options: WaitOptions<T>): Promise<T | undefined> {
  const { signal } = options;
  signal?.throwIfAborted();
  const ctl = new AbortController();
  const stop = () => ctl.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const events = deps.stream({ signal: ctl.signal, onOpen: () => opened() });
  const timer = new AbortController();
  const deadline =
    options.maxWait === undefined
      ? new Promise<never>(() => {})
      : systemClock.sleep(options.maxWait, timer.signal).then(
          (): typeof TIMED_OUT => TIMED_OUT,
          () => new Promise<never>(() => {}),
        );
  let post: T | undefined;
  const aborted = () => {
    if (signal?.aborted) throw signal.reason;
  };
  try {
    let next = events.next();
    // The stream ending before it opened: refused (thrown by next) or aborted.
    const first = await Promise.race([open.then(() => 'open' as const), next.then(() => 'ended' as const), deadline]);
    if (first === TIMED_OUT) throw new WaitTimeoutError(`${what} did not finish within ${options.maxWait} ms`, undefined);
    if (first === 'ended') {
      aborted();
      return undefined;
    }
    post = await deps.read(ctl.signal);
    options.onProgress?.(post);
    if (done(post)) return post;
    for (;;) {
      const r = await Promise.race([next, deadline]);
      if (r === TIMED_OUT) throw new WaitTimeoutError(`${what} did not finish within ${options.maxWait} ms`, post);
      if (r.done) {
        aborted();
        throw new Error(`the event stream of ${what} ended`);
      }
      const seen = deps.apply(post, r.value);
      if (seen !== post) {
        post = seen;
        if (done(post)) {
          // The events say it is done: read it once, as the daemon has it now.
          post = await deps.read(ctl.signal);
          options.onProgress?.(post);
          if (done(post)) return post;
        } else {
          options.onProgress?.(post);
        }
      }
      next = events.next();
    }
  } catch (error) {
    aborted();
    if (error instanceof NotFoundError && post === undefined) return undefined;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    timer.abort();
    ctl.abort();
    void events.return(undefined).catch(() => {});
  }
}
