import type { SocialpubEvent } from '@socialpub/core';
import { systemClock } from './clock';
import { NotFoundError, WaitTimeoutError } from './errors';
import type { WaitOptions } from './poll';

/** What following a job or a media task needs. */
export interface FollowDeps<T> {
  /** Reads the state (one counted request). */
  read(signal: AbortSignal): Promise<T>;
  /**
   * GET /events with the filter that finds the state's events (one counted request of the
   * events class per stream opened). `onState`: the state the stream itself carries (a job's
   * post with `with_post`): when it opens, before `onOpen`, and after each batch of events.
   */
  stream(params: { signal: AbortSignal; onOpen: () => void; onState: (state: T) => void }): AsyncGenerator<SocialpubEvent, void, undefined>;
  /** The state as an event leaves it (the same object when the event changes nothing). */
  apply(state: T, event: SocialpubEvent): T;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Follows a job or a media task on the event stream until `done` holds, and resolves with
 * the state as the daemon then shows it. Its cost does not grow with the wait: one stream
 * (resumed after a drop without missing an event), and, when the stream does not carry the
 * state itself (`onState`: a job's post with `with_post`), one read once it is open and one
 * when the events say it is done — 3 counted requests at most, where polling spent the
 * scheduled-content class's 100 an hour in minutes (issue 35); with the state carried, the
 * stream alone, none of the scheduled-content class. In between, `onProgress`
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
  // The state the stream carries, not yet taken (the latest wins), and a wake-up for the loop waiting on the next event.
  let carried: T | undefined;
  let carries = false;
  let wake: () => void = () => {};
  const onState = (state: T) => {
    carried = state;
    carries = true;
    wake();
  };
  const events = deps.stream({ signal: ctl.signal, onOpen: () => opened(), onState });
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
    // A daemon that carries the state sent it with the stream's opening: no read.
    post = carried ?? (await deps.read(ctl.signal));
    carried = undefined;
    options.onProgress?.(post);
    if (done(post)) return post;
    for (;;) {
      const woken = new Promise<'carried'>((resolve) => (wake = () => resolve('carried')));
      const r = carried === undefined ? await Promise.race([next, woken, deadline]) : 'carried';
      if (r === TIMED_OUT) throw new WaitTimeoutError(`${what} did not finish within ${options.maxWait} ms`, post);
      if (r === 'carried') {
        // The state as the daemon has it now (after a batch of events, or a reconnection); `next` is still pending.
        post = carried!;
        carried = undefined;
        options.onProgress?.(post);
        if (done(post)) return post;
        continue;
      }
      if (r.done) {
        aborted();
        throw new Error(`the event stream of ${what} ended`);
      }
      const seen = deps.apply(post, r.value);
      if (seen !== post) {
        post = seen;
        // The events say it is done: read it once, as the daemon has it now — unless the stream
        // carries the state, whose copy follows this batch of events (no read).
        if (done(post) && !carries) {
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
