import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { createMetaInsights } from '../meta/insights';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { normalizedFrom, type PostAnalytics } from '../post-analytics';
import { instagramTokenRefresher } from './refresh-token';

/**
 * Instagram media insights (docs/reference/platforms.md §18.2): `views, reach, likes,
 * comments, shares, saved, total_interactions` (`impressions`, `plays` and `video_views`
 * were deprecated in April 2025); `instagram_business_manage_insights` (Instagram Login,
 * graph.instagram.com) or `instagram_manage_insights` (Facebook Login, graph.facebook.com).
 * Figures may lag up to 48 hours. Meta allows about 200 calls per hour per account: the
 * collector takes at most 60.
 */
export function createInstagramAnalytics(options: MetaAdapterOptions = {}): PostAnalytics {
  const viaFacebook = (meta: Record<string, unknown>) => meta.login === 'facebook';
  return createMetaInsights(
    {
      label: 'Instagram',
      host: (ctx) => (viaFacebook(ctx.credentials.meta) ? 'graph.facebook.com' : 'graph.instagram.com'),
      version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
      token: (ctx) => requireToken(ctx, 'Instagram'),
      refresher: (ctx) => (viaFacebook(ctx.credentials.meta) ? null : instagramTokenRefresher),
      metrics: ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions'],
      normalize: (own) => normalizedFrom(own, { views: 'views', likes: 'likes', comments: 'comments', shares: 'shares', saves: 'saved' }),
      requiredScope: (c) =>
        viaFacebook(c.meta)
          ? { scope: 'instagram_manage_insights', reconnect: 'socialpub connect instagram --login facebook' }
          : { scope: 'instagram_business_manage_insights', reconnect: 'socialpub connect instagram' },
      callsPerHour: 60,
    },
    options,
  );
}
