import { createMetaInsights } from '../meta/insights';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { normalizedFrom, type PostAnalytics } from '../post-analytics';
import { threadsTokenRefresher } from './refresh-token';

/**
 * Threads media insights (docs/reference/platforms.md §18.4): `views, likes, replies,
 * reposts, quotes, shares` with `threads_basic` and `threads_manage_insights`; no data
 * before 2024-04-13. The collector takes at most 60 calls per hour per profile.
 */
export function createThreadsAnalytics(options: MetaAdapterOptions = {}): PostAnalytics {
  return createMetaInsights(
    {
      label: 'Threads',
      host: () => 'graph.threads.net',
      version: options.threadsVersion ?? 'v1.0',
      tokenIn: 'param',
      token: (ctx) => requireToken(ctx, 'Threads'),
      refresher: () => threadsTokenRefresher,
      metrics: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
      normalize: (own) => normalizedFrom(own, { views: 'views', likes: 'likes', comments: 'replies', shares: ['reposts', 'quotes', 'shares'] }),
      requiredScope: () => ({ scope: 'threads_manage_insights', reconnect: 'socialpub connect threads' }),
      callsPerHour: 60,
    },
    options,
  );
}
