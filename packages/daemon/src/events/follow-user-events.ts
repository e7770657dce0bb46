import type { SocialpubEvent } from '@socialpub/core';
import type { EventsRepository } from '../store/events';
import type { EventsHub } from './events-hub';
import { presentEvent } from './present-event';

export interface FollowUserEventsParams {
  /** Event types, or prefixes like `target.*`; default all. */
  types?: readonly string[] | undefined;
  jobId?: string | undefined;
  /** Ends the iteration (quietly) when aborted. */
  signal?: AbortSignal | undefined;
  /** Called once following has begun: no event committed from then on is missed. */
  onOpen?: (() => void) | undefined;
}

/**
 * A user's events from now on, as GET /events would send them, read from the outbox each
 * time the hub says events committed: what the in-process MCP backend's waits follow, so
 * a wait costs no request at all (issue 35). Nothing is held in memory between wake-ups:
 * the outbox is the queue, as for the SSE route.
 */
export async function* followUserEvents(
  { hub, events, userId }: { hub: EventsHub; events: EventsRepository; userId: string },
  params: FollowUserEventsParams = {},
): AsyncGenerator<SocialpubEvent, void, undefined> {
  const { signal } = params;
  const filter = { types: (params.types ?? []).map((t) => (t.endsWith('.*') ? t.slice(0, -1) : t)), ...(params.jobId ? { jobId: params.jobId } : {}) };
  let woken: boolean;
  let wake: (() => void) | null = null;
  const rouse = () => {
    woken = true;
    wake?.();
  };
  const unsubscribe = hub.subscribe(rouse);
  signal?.addEventListener('abort', rouse, { once: true });
  let cursor = events.lastId();
  try {
    params.onOpen?.();
    while (!signal?.aborted) {
      woken = false;
      const page = events.listAfter(userId, cursor, filter);
      cursor = page.scanned;
      for (const e of page.events) {
        yield presentEvent(e);
        if (signal?.aborted) return;
      }
      // A full page: more are waiting. Otherwise sleep until the hub (or the signal) says so.
      if (page.events.length >= 500 || woken) continue;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', rouse);
  }
}
