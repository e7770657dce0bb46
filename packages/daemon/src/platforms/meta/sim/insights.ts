import { simFigures, type SimFigures } from '../../shared/sim/sim-figures';
import { fail, type MetaSimState, type SimPlatform, type SimRequest, type TokenRecord } from './core';

interface InsightsRule {
  platform: SimPlatform;
  kind: 'ig_user' | 'fb_page' | 'threads_user';
  owner: string;
  /** The metrics the object answers, each from the simulated figures. */
  metrics: Record<string, (f: SimFigures) => number | Record<string, number>>;
  /** How far the figures lag behind the post's age (the network documents up to 48 h for Instagram; the sandbox keeps a demo moving). */
  lagMs: number;
  titles: Record<string, string>;
  /** The permission a token needs to read them (by the kind of token: Instagram Login or Facebook Login). */
  scope: (token: TokenRecord) => string;
}

const RULES: Record<string, InsightsRule> = {
  ig_media: {
    platform: 'instagram',
    kind: 'ig_user',
    owner: 'accountId',
    lagMs: 30_000,
    metrics: {
      views: (f) => f.views,
      reach: (f) => f.reach,
      likes: (f) => f.likes,
      comments: (f) => f.replies,
      shares: (f) => f.shares,
      saved: (f) => f.saves,
      total_interactions: (f) => f.likes + f.replies + f.shares + f.saves,
    },
    titles: { views: 'Views', reach: 'Accounts reached', likes: 'Likes', comments: 'Comments', shares: 'Shares', saved: 'Saves', total_interactions: 'Interactions' },
    scope: (token) => (token.kind === 'ig_user' ? 'instagram_business_manage_insights' : 'instagram_manage_insights'),
  },
  threads_media: {
    platform: 'threads',
    kind: 'threads_user',
    owner: 'accountId',
    lagMs: 0,
    metrics: { views: (f) => f.views, likes: (f) => f.likes, replies: (f) => f.replies, reposts: (f) => f.reposts, quotes: (f) => f.quotes, shares: (f) => f.shares },
    titles: { views: 'Views', likes: 'Likes', replies: 'Replies', reposts: 'Reposts', quotes: 'Quotes', shares: 'Shares' },
    scope: () => 'threads_manage_insights',
  },
  fb_post: {
    platform: 'facebook',
    kind: 'fb_page',
    owner: 'pageId',
    lagMs: 0,
    metrics: {
      post_total_media_view_unique: (f) => f.reach,
      post_reactions_by_type_total: (f) => ({ like: f.likes - Math.floor(f.likes / 4), love: Math.floor(f.likes / 4) }),
      post_clicks: (f) => f.linkClicks,
    },
    titles: { post_total_media_view_unique: 'Lifetime Total Unique Media Views', post_reactions_by_type_total: 'Lifetime Total post Reactions by Type.', post_clicks: 'Lifetime Post Clicks' },
    scope: () => 'read_insights',
  },
};

const HOST_PLATFORMS: Record<string, SimPlatform[]> = {
  'graph.facebook.com': ['instagram', 'facebook'],
  'graph.instagram.com': ['instagram'],
  'graph.threads.net': ['threads'],
  'graph.threads.com': ['threads'],
};

/**
 * `GET /{object-id}/insights?metric=a,b` (docs/reference/platforms.md §18): Instagram media
 * (`views, reach, likes, comments, shares, saved, total_interactions`; `impressions`, `plays`
 * and `video_views` deprecated in 2025 are refused as Graph refuses them), Threads media
 * (`views, likes, replies, reposts, quotes, shares`) and Facebook Page posts (the 2025 names:
 * `post_total_media_view_unique`, `post_reactions_by_type_total`, `post_clicks`; every
 * `post_impressions*` metric is an invalid metric). Figures grow with the object's age
 * (shared/sim/sim-figures.ts); the owner's token alone reads them, and only when its grant
 * holds the insights permission (`instagram_business_manage_insights` with Instagram Login,
 * `instagram_manage_insights` with Facebook Login, `read_insights`, `threads_manage_insights`;
 * otherwise Graph's code 10 permission error). Other paths are left to the other route sets.
 */
export function insightsRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (req.method !== 'GET' || !id || edge !== 'insights' || extra !== undefined) return undefined;
  const obj = sim.objects.get(`post:${id}`) ?? sim.objects.get(id);
  const rule = obj ? RULES[String(obj._type)] : undefined;
  if (!obj || !rule || !HOST_PLATFORMS[req.host]?.includes(rule.platform)) {
    fail(100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33 });
  }
  sim.actingFor(req, String(obj[rule.owner]), rule.platform, rule.kind);
  // A token whose grant lacks the insights permission (the person unticked it in the dialog) gets Graph's permission error.
  const token = sim.authenticate(req, rule.platform, String(obj[rule.owner]));
  if (token.scopes && !token.scopes.includes(rule.scope(token))) fail(10, '(#10) Application does not have permission for this action', { status: 403 });
  const asked = (req.params.metric ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (asked.length === 0) fail(100, '(#100) The parameter metric is required');
  const known = Object.keys(rule.metrics);
  for (const [i, m] of asked.entries()) {
    if (rule.metrics[m]) continue;
    if (rule.platform === 'facebook') fail(100, '(#100) The value must be a valid insights metric');
    fail(100, `(#100) metric[${i}] must be one of the following values: ${known.join(', ')}`);
  }
  const f = simFigures(`${rule.platform}:${String(obj.id)}`, sim.clock.now() - Number(obj.createdAt), rule.lagMs);
  return {
    data: asked.map((name) => ({
      name,
      period: 'lifetime',
      values: [{ value: rule.metrics[name]!(f) }],
      title: rule.titles[name],
      description: rule.titles[name],
      id: `${String(obj.id)}/insights/${name}/lifetime`,
    })),
  };
}
