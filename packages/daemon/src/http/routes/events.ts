import { EVENT_TYPES, type Routes } from '@socialpub/core';
import { streamSSE } from 'hono/streaming';
import { eventId, parseEventId, presentEvent } from '../../events/present-event';
import type { EventsHub } from '../../events/events-hub';
import type { EventFilter } from '../../store/events';
import type { RouteDeps } from '../deps';
import { invalid } from '../errors';
import type { RouteHandlers } from '../route-table/mount-route';

/** A comment line every this often keeps proxies and clients from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
const PREFIXES = new Set(EVENT_TYPES.map((t) => t.split('.')[0] as string));

/** `target.*,post.finished` -> exact types and prefixes ('target.'); null when one is unknown. */
export function parseTypes(text: string | undefined): { types: string[] } | { unknown: string } {
  if (text === undefined || text.trim() === '') return { types: [] };
  const types: string[] = [];
  for (const raw of text.split(',')) {
    const t = raw.trim();
    if ((EVENT_TYPES as readonly string[]).includes(t)) types.push(t);
    else if (t.endsWith('.*') && PREFIXES.has(t.slice(0, -2))) types.push(t.slice(0, -1));
    else return { unknown: t };
  }
  return { types };
}

/** GET /events (declared in core's route table): the user's events as Server-Sent Events, from the outbox, then live. */
export function eventsHandlers(deps: RouteDeps & { hub: EventsHub; heartbeatMs?: number }): RouteHandlers<Routes, 'events.stream'> {
  const { store, clock, hub, jobs } = deps;
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;

  return { 'events.stream': ({ query: q }, c) => {
    const user = c.get('user');
    const types = parseTypes(q.types);
    if ('unknown' in types) {
      throw invalid([{ path: 'types', message: `unknown event type ${JSON.stringify(types.unknown)} (known: ${EVENT_TYPES.join(', ')}, or a prefix like target.*)` }]);
    }
    const resumeText = c.req.header('last-event-id') ?? q.since;
    let cursor: number;
    if (resumeText !== undefined && resumeText !== '') {
      const id = parseEventId(resumeText);
      if (id === null) throw invalid([{ path: c.req.header('last-event-id') !== undefined ? 'Last-Event-ID' : 'since', message: 'is not an event id (evt_<n>)' }]);
      cursor = id;
    } else {
      cursor = store.events.lastId();
    }
    const filter: EventFilter = { types: types.types, ...(q.job_id ? { jobId: q.job_id } : {}) };
    // with_post: the job's post rides on the stream (issue 35: a wait that reads it through GET
    // /content/scheduled spends the scheduled-content class, 100 an hour). Read once here, so an
    // unknown or another user's job is refused as that GET refuses it, before the stream opens.
    if (q.with_post === 'true' && !q.job_id) throw invalid([{ path: 'with_post', message: 'needs job_id (the post of which job)' }]);
    const jobId = q.with_post === 'true' ? q.job_id : undefined;
    const readPost = jobId ? () => jobs.get(user, jobId) : null;
    readPost?.();

    // Opened with the dashboard's session: the stream ends once the session does (sign-out, expiry).
    const session = c.get('session');
    const sessionLive = () => !session || store.dashboardSessions.isLive(session.id, clock.now());

    return streamSSE(c, async (stream) => {
      let wake: AbortController = new AbortController();
      const unsubscribe = hub.subscribe(() => wake.abort());
      stream.onAbort(() => wake.abort());
      try {
        const oldest = store.events.oldestId(user.id);
        if (resumeText && oldest !== null && oldest > cursor + 1) {
          // Older events than these were dropped by retention: say so rather than pretend.
          await stream.writeSSE({ event: 'gap', data: JSON.stringify({ after: eventId(cursor), oldest_kept: eventId(oldest) }) });
        }
        // The post is read after the cursor is fixed: every change it does not show yet comes as an event after it.
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ after: eventId(cursor), ...(readPost ? { post: readPost() } : {}) }), retry: 1000 });
        let caughtUp = false;
        while (!stream.aborted && sessionLive()) {
          const page = store.events.listAfter(user.id, cursor, filter);
          for (const e of page.events) {
            await stream.writeSSE({ id: eventId(e.id), event: e.type, data: JSON.stringify(presentEvent(e)) });
          }
          // The post as these events left it (no id: not an event, nothing to resume after).
          if (readPost && page.events.length > 0) await stream.writeSSE({ event: 'post', data: JSON.stringify({ post: readPost() }) });
          const full = page.scanned > cursor && page.events.length >= 500;
          cursor = page.scanned;
          if (full) continue;
          if (!caughtUp) {
            // Everything kept up to the moment of connecting has been sent; live events follow.
            caughtUp = true;
            await stream.writeSSE({ event: 'live', data: JSON.stringify({ after: eventId(cursor) }) });
          }
          if (wake.signal.aborted) wake = new AbortController();
          // New events may have committed between the read and the subscription's wake-up.
          if (store.events.lastId() > cursor && store.events.listAfter(user.id, cursor, filter, 1).scanned > cursor) continue;
          try {
            await clock.sleep(heartbeatMs, wake.signal);
            if (!stream.aborted) await stream.write(': keep-alive\n\n');
          } catch {
            // woken by a new event or the client leaving
          }
        }
      } finally {
        unsubscribe();
      }
    });
  } };
}
