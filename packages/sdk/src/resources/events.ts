import { ROUTES, fillPath, type EventType, type Post, type SocialpubEvent } from '@socialpub/core';
import { APIError } from '../errors';
import { parseSse } from '../sse-parser';
import { Resource } from './resource';

export interface EventStreamParams {
  /** Start after this event id (`evt_…`); default: only events from now on. */
  since?: string;
  /** Event types, or prefixes like `target.*`; default: all. */
  types?: readonly (EventType | `${string}.*`)[];
  /** Only the events of this job. */
  jobId?: string;
  /** Ends the iteration (quietly) when aborted. */
  signal?: AbortSignal;
  /** End once the events kept so far (after `since`) are yielded, instead of following live ones. */
  untilCaughtUp?: boolean;
  /**
   * Called each time a stream is open (its `ready` frame came), before any of its events:
   * from then on nothing committed is missed, so a caller may read the state it follows.
   */
  onOpen?: () => void;
  /**
   * With `jobId`: asks the daemon for the job's post on the stream (`with_post`) and gets it
   * here — when a stream opens (before `onOpen`) and after each batch of the job's events — as
   * GET /content/scheduled?job_id= shows it, without spending that class. A daemon from before
   * `with_post` sends none: `onOpen` comes without an `onPost` before it.
   */
  onPost?: (post: Post) => void;
}

/** Waits between reconnections: 1 s doubling to 30 s; reset once a stream opens. */
const RECONNECT_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

export class Events extends Resource {
  /**
   * GET /events as an async iterator of events. It reconnects by itself when the stream
   * drops or the daemon restarts, resuming after the last event it yielded (Last-Event-ID),
   * so nothing is missed or repeated. A refusal (bad filter, bad key) throws; the end of the
   * iteration is `signal` aborting (or the caller's `break`).
   */
  async *stream(params: EventStreamParams = {}): AsyncGenerator<SocialpubEvent, void, undefined> {
    const { signal } = params;
    let last = params.since;
    let failures = 0;
    const query = { types: params.types?.join(','), job_id: params.jobId, with_post: params.jobId && params.onPost ? 'true' : undefined };
    while (!signal?.aborted) {
      let response: Response;
      try {
        response = await this.transport.openStream(fillPath(ROUTES['events.stream'].path, {}), { ...query, since: last }, last ? { 'last-event-id': last } : {}, signal);
      } catch (error) {
        if (signal?.aborted) return;
        // A refusal will not change by retrying; a daemon that is away may come back.
        if (error instanceof APIError && error.status !== undefined && error.status < 500 && error.status !== 429) throw error;
        if (!(await this.#pause(failures++, signal))) return;
        continue;
      }
      failures = 0;
      try {
        for await (const message of parseSse(response.body as ReadableStream<Uint8Array>)) {
          if (message.event === 'ready' || message.event === 'post') {
            const post = params.onPost && (JSON.parse(message.data) as { post?: Post }).post;
            if (post) params.onPost!(post);
          }
          if (message.event === 'ready') params.onOpen?.();
          if (message.event === 'live' && params.untilCaughtUp) return;
          if (message.id === undefined) continue; // ready, post, live, gap
          last = message.id;
          yield JSON.parse(message.data) as SocialpubEvent;
        }
      } catch (error) {
        if (signal?.aborted) return;
        void error; // the connection dropped: reconnect and resume
      }
      if (!(await this.#pause(failures++, signal))) return;
    }
  }

  async #pause(failures: number, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      await this.clock.sleep(RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)] as number, signal);
      return true;
    } catch {
      return false;
    }
  }
}
