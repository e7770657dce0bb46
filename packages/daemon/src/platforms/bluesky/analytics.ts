import type { Got } from 'got';
import type { AddressGuard } from '../../net/address-guard';
import { numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import { openSession } from './bluesky-session';
import { defaultPdsGuard } from './pds-access';
import { blueskyTokenRefresher } from './session';

const COUNTS = ['likeCount', 'repostCount', 'replyCount', 'quoteCount', 'bookmarkCount'] as const;

/**
 * Bluesky figures (docs/reference/platforms.md §18.9): `app.bsky.feed.getPosts` with up to 25
 * `uris`, through the account's PDS (which answers it for the AppView): `likeCount`,
 * `repostCount`, `replyCount`, `quoteCount`. Bluesky shows no impressions. A post no longer
 * there is left out of the answer. Reads are generous on the AppView (3,000 per 5 minutes
 * per address); the collector takes at most 300 per 5 minutes.
 */
export function createBlueskyAnalytics(deps: { guard?: AddressGuard; http?: Got; requestTimeoutMs?: number } = {}): PostAnalytics {
  const guard = deps.guard ?? defaultPdsGuard;
  const refresher = blueskyTokenRefresher(guard);
  return {
    batchSize: 25,
    budget: { calls: 300, windowMs: 5 * 60_000 },
    refusal: () => null,
    async read(ctx, postIds) {
      const s = await openSession(ctx, { guard, refresher, http: deps.http, timeoutMs: deps.requestTimeoutMs });
      const res = await s.call('figures lookup', false, (c) => c.query<{ posts?: Array<Record<string, unknown> & { uri?: string }> }>('app.bsky.feed.getPosts', { params: { uris: postIds } }));
      const out = new Map<string, PostFigures>();
      for (const post of res.body.posts ?? []) {
        if (typeof post.uri !== 'string') continue;
        const own = numericFields(Object.fromEntries(COUNTS.map((k) => [k, post[k]])));
        out.set(post.uri, {
          platformMetrics: own,
          metrics: {
            ...(own.likeCount !== undefined ? { likes: own.likeCount } : {}),
            ...(own.replyCount !== undefined ? { comments: own.replyCount } : {}),
            ...(own.repostCount !== undefined ? { shares: own.repostCount + (own.quoteCount ?? 0) } : {}),
            ...(own.bookmarkCount !== undefined ? { saves: own.bookmarkCount } : {}),
          },
        });
      }
      return out;
    },
  };
}
