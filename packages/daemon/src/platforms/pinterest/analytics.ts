import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { normalizedFrom, numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import { PinterestApiError } from './pinterest-client';
import { pinterestSession } from './pinterest-session';

const METRICS = ['IMPRESSION', 'SAVE', 'PIN_CLICK', 'OUTBOUND_CLICK', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS'];
const DAY = 86_400_000;

/** The Pinterest error behind a mapped publisher error, if any. */
function apiCause(err: unknown): PinterestApiError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    if (e instanceof PinterestApiError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Pinterest figures (docs/reference/platforms.md §18.7): `GET /v5/pins/{pin_id}/analytics`
 * with `start_date` (at most 90 days back: the window's start, as pinterest-v5.openapi.json
 * says), `end_date` today and `metric_types`; the answer's `ALL.summary_metrics`
 * (`IMPRESSION`, `SAVE`, `PIN_CLICK`, `OUTBOUND_CLICK`) and `lifetime_metrics`
 * (`TOTAL_COMMENTS`, `TOTAL_REACTIONS`). One pin a call, `pins:read`; a deleted pin is a 404.
 * Within Pinterest's 1,000 reads a minute per account the collector takes at most 100 an hour.
 */
export function createPinterestAnalytics(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostAnalytics {
  return {
    batchSize: 1,
    budget: { calls: 100, windowMs: 3_600_000 },
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      if (!Array.isArray(scopes) || scopes.includes('pins:read')) return null;
      return 'this Pinterest connection was made without the pins:read scope figures need: reconnect it (socialpub connect pinterest) to read them';
    },
    async read(ctx: CallContext, postIds) {
      const s = await pinterestSession(ctx, deps);
      const today = Math.floor(ctx.clock.now() / DAY) * DAY;
      const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const out = new Map<string, PostFigures>();
      for (const id of postIds) {
        let body: Record<string, { summary_metrics?: unknown; lifetime_metrics?: unknown }>;
        try {
          const query = `start_date=${date(today - 89 * DAY)}&end_date=${date(today)}&metric_types=${METRICS.join(',')}`;
          body = (await s.call('pin figures', false, (c) => c.request<typeof body>(`/v5/pins/${encodeURIComponent(id)}/analytics?${query}`, { method: 'GET' }))).body;
        } catch (err) {
          if (apiCause(err)?.status === 404) continue;
          throw err;
        }
        const own = { ...numericFields(body.ALL?.summary_metrics), ...numericFields(body.ALL?.lifetime_metrics) };
        out.set(id, { platformMetrics: own, metrics: normalizedFrom(own, { impressions: 'IMPRESSION', likes: 'TOTAL_REACTIONS', comments: 'TOTAL_COMMENTS', saves: 'SAVE', clicks: ['PIN_CLICK', 'OUTBOUND_CLICK'] }) });
      }
      return out;
    },
  };
}
