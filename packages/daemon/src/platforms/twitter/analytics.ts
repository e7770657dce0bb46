import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { callRenewingToken } from '../shared/call-renewing-token';
import { numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import { mapXError } from './map-x-error';
import { xAuthFor } from './x-auth';
import { XApiError, XClient } from './x-client';

const HOST = 'api.x.com';

interface LookupAnswer {
  data?: Array<{ id: string; public_metrics?: Record<string, unknown>; non_public_metrics?: Record<string, unknown> }>;
}

/**
 * X figures (docs/reference/platforms.md §18.1): `GET /2/tweets?ids=` (up to 100) with
 * `tweet.fields=public_metrics,non_public_metrics`. Non-public figures come only for the
 * account's own posts under 30 days old with a user-context token; for the others X answers
 * a field authorization error beside the post, whose public figures are still read. The
 * lookup's budget is 900 calls per 15 minutes per user; the collector takes at most 300.
 */
export function createTwitterAnalytics(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostAnalytics {
  return {
    batchSize: 100,
    budget: { calls: 300, windowMs: 15 * 60_000 },
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      // OAuth 1.0a keys (no scopes) read any post; an OAuth 2.0 grant needs tweet.read.
      if (Array.isArray(scopes) && !scopes.includes('tweet.read')) return 'this X connection was made without the tweet.read scope: reconnect it (socialpub connect twitter) to read figures';
      return null;
    },
    async read(ctx: CallContext, postIds) {
      const client = new XClient({ baseUrl: ctx.baseUrl(HOST), auth: await xAuthFor(ctx), signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
      const res = await callRenewingToken(ctx, () => client.request<LookupAnswer>('/2/tweets', { method: 'GET', query: { ids: postIds.join(','), 'tweet.fields': 'public_metrics,non_public_metrics' } }), {
        refused: (err) => err instanceof XApiError && err.status === 401 && !ctx.credentials.secrets.oauth_token,
        renew: async () => client.setAuth(await xAuthFor(ctx, true)),
        mapError: (err) => mapXError(err, { now: ctx.clock.now(), creates: false, step: 'figures lookup' }),
      });
      const out = new Map<string, PostFigures>();
      for (const post of res.body.data ?? []) {
        const pub = numericFields(post.public_metrics);
        const priv = numericFields(post.non_public_metrics);
        const clicks = priv.url_link_clicks !== undefined || priv.user_profile_clicks !== undefined ? (priv.url_link_clicks ?? 0) + (priv.user_profile_clicks ?? 0) : undefined;
        out.set(post.id, {
          platformMetrics: { ...pub, ...priv },
          metrics: {
            ...(pub.impression_count !== undefined ? { impressions: pub.impression_count } : {}),
            ...(pub.like_count !== undefined ? { likes: pub.like_count } : {}),
            ...(pub.reply_count !== undefined ? { comments: pub.reply_count } : {}),
            ...(pub.retweet_count !== undefined ? { shares: pub.retweet_count + (pub.quote_count ?? 0) } : {}),
            ...(pub.bookmark_count !== undefined ? { saves: pub.bookmark_count } : {}),
            ...(clicks !== undefined ? { clicks } : {}),
          },
        });
      }
      return out;
    },
  };
}
