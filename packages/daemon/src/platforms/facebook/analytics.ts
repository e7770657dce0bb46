import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { createMetaInsights } from '../meta/insights';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import type { PostAnalytics } from '../post-analytics';

const REACTIONS = 'post_reactions_by_type_total';

/**
 * Facebook Page post insights (docs/reference/platforms.md §18.3), the names current since
 * the June 2025 deprecation of every `post_impressions*` metric:
 * `post_total_media_view_unique` (people who saw the post's media; its alternative to
 * `post_impressions_unique`), `post_reactions_by_type_total` (an object by reaction,
 * flattened here as `post_reactions_by_type_total.like`...), `post_clicks`. A Page token with
 * `read_insights` (the ANALYZE task) and `pages_read_engagement`.
 */
export function createFacebookAnalytics(options: MetaAdapterOptions = {}): PostAnalytics {
  return createMetaInsights(
    {
      label: 'Facebook',
      host: () => 'graph.facebook.com',
      version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
      token: (ctx) => ctx.credentials.secrets.page_token ?? requireToken(ctx, 'Facebook'),
      refresher: () => null,
      metrics: ['post_total_media_view_unique', REACTIONS, 'post_clicks'],
      normalize(own) {
        const reactions = Object.entries(own).filter(([k]) => k.startsWith(`${REACTIONS}.`));
        return {
          ...(own.post_total_media_view_unique !== undefined ? { views: own.post_total_media_view_unique } : {}),
          ...(reactions.length > 0 ? { likes: reactions.reduce((sum, [, v]) => sum + v, 0) } : {}),
          ...(own.post_clicks !== undefined ? { clicks: own.post_clicks } : {}),
        };
      },
      requiredScope: () => ({ scope: 'read_insights', reconnect: 'socialpub connect facebook' }),
      callsPerHour: 60,
    },
    options,
  );
}
