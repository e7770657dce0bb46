/**
 * The normalized figures of a published post (GET /analytics/posts `metrics`), each present
 * only where the network has it (docs/api.md "Analytics"). No imports: the SDK's light client
 * and the CLI read the list without loading zod.
 * - `impressions`: times the post was shown (X `impression_count`, LinkedIn `impressionCount`, Pinterest `IMPRESSION`);
 * - `views`: times it was viewed or played (Instagram, Threads, Facebook media views, YouTube, TikTok);
 * - `likes`, `comments` (replies), `shares` (reposts, retweets, reblogs, quotes), `saves` (bookmarks, saves), `clicks` (link and profile clicks).
 */
export const NORMALIZED_METRICS = ['impressions', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'] as const;
export type NormalizedMetric = (typeof NORMALIZED_METRICS)[number];
export type NormalizedMetrics = Partial<Record<NormalizedMetric, number>>;

/**
 * When the collector reads a post's figures, after its publish (ms): about 1 h, 24 h, 72 h,
 * 7 d and 30 d (issue 36); on demand besides.
 */
export const COLLECTION_AGES_MS = Object.freeze([3_600_000, 86_400_000, 3 * 86_400_000, 7 * 86_400_000, 30 * 86_400_000] as const);
