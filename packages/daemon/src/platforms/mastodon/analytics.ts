import type { CallContext } from '../adapter';
import { numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import { MastodonApiError } from './mastodon-client';
import { mapMastodonError } from './map-mastodon-error';
import { clientFor, type ClientDeps } from './server-of';

const COUNTS = ['favourites_count', 'reblogs_count', 'replies_count', 'quotes_count'] as const;

/**
 * Mastodon figures (docs/reference/platforms.md §18.10): `GET /api/v1/statuses/:id`, one
 * status a call (any server; the batch form `GET /api/v1/statuses?id[]=` is 4.3 and later
 * only): `favourites_count`, `reblogs_count`, `replies_count` (and `quotes_count` where the
 * server has quotes). No impressions. A 404 means the status is gone. A server allows 300
 * calls per 5 minutes per account, publishing included: the collector takes at most 60.
 */
export function createMastodonAnalytics(deps: ClientDeps = {}): PostAnalytics {
  return {
    batchSize: 1,
    budget: { calls: 60, windowMs: 5 * 60_000 },
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      if (Array.isArray(scopes) && !scopes.some((s) => s === 'read' || s === 'read:statuses')) return 'this Mastodon connection was made without the read:statuses scope: reconnect it (socialpub connect mastodon) to read figures';
      return null;
    },
    async read(ctx: CallContext, postIds) {
      const out = new Map<string, PostFigures>();
      for (const id of postIds) {
        let body: Record<string, unknown>;
        try {
          body = (await clientFor(ctx, deps).request<Record<string, unknown>>(`/api/v1/statuses/${encodeURIComponent(id)}`, { method: 'GET' })).body;
        } catch (err) {
          if (err instanceof MastodonApiError && err.status === 404) continue;
          throw mapMastodonError(err, { now: ctx.clock.now(), step: 'figures lookup' });
        }
        const own = numericFields(Object.fromEntries(COUNTS.map((k) => [k, body[k]])));
        out.set(id, {
          platformMetrics: own,
          metrics: {
            ...(own.favourites_count !== undefined ? { likes: own.favourites_count } : {}),
            ...(own.replies_count !== undefined ? { comments: own.replies_count } : {}),
            ...(own.reblogs_count !== undefined ? { shares: own.reblogs_count + (own.quotes_count ?? 0) } : {}),
          },
        });
      }
      return out;
    },
  };
}
