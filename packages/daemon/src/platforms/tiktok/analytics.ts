import type { Got } from 'got';
import { normalizedFrom, numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import { tiktokApi, tiktokClient } from './tiktok-api';

const FIELDS = ['id', 'like_count', 'comment_count', 'share_count', 'view_count'];

/**
 * TikTok figures (docs/reference/platforms.md §18.8): `POST /v2/video/query/?fields=…` with
 * `{"filters":{"video_ids":[…]}}`, up to 20 of the creator's own videos a call:
 * `like_count`, `comment_count`, `share_count`, `view_count`. Needs the `video.list` scope
 * (asked at connect since analytics). A post still waiting for its public id (its target's
 * post id is then the publish id) is not found. The collector takes at most 100 calls an
 * hour per creator.
 */
export function createTiktokAnalytics(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostAnalytics {
  return {
    batchSize: 20,
    budget: { calls: 100, windowMs: 3_600_000 },
    // The adapter keeps the publish id (v_pub_…) when TikTok gives no public video id (a SELF_ONLY post, or moderation outlasting the wait).
    unreadable: (postId) => (/^\d+$/.test(postId) ? null : `TikTok gave this post no public video id (a private post, or one still in moderation when it was published): its figures cannot be read through the API`),
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      if (!Array.isArray(scopes) || scopes.includes('video.list')) return null;
      return 'this TikTok connection was made without the video.list scope figures need: reconnect it (socialpub connect tiktok) to read them';
    },
    async read(ctx, postIds) {
      const client = await tiktokClient(ctx, deps);
      const data = await tiktokApi<{ videos?: Array<Record<string, unknown>> }>(ctx, client, 'video figures', `/v2/video/query/?fields=${FIELDS.join(',')}`, { filters: { video_ids: postIds } });
      const out = new Map<string, PostFigures>();
      for (const v of data.videos ?? []) {
        if (typeof v.id !== 'string' && typeof v.id !== 'number') continue;
        const { id: _id, ...own } = numericFields(v);
        out.set(String(v.id), { platformMetrics: own, metrics: normalizedFrom(own, { views: 'view_count', likes: 'like_count', comments: 'comment_count', shares: 'share_count' }) });
      }
      return out;
    },
  };
}
