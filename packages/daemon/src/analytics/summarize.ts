import { formatInstant, type AnalyticsSummary, type NormalizedMetrics, type Platform } from '@socialpub/core';
import type { LatestReading } from '../store/post-metrics';

type Weekday = AnalyticsSummary['by_weekday_hour'][number]['weekday'];
/** The interactions a post drew (impressions and views are reach, not engagement). */
const ENGAGEMENT: readonly (keyof NormalizedMetrics)[] = ['likes', 'comments', 'shares', 'saves', 'clicks'];

export const engagementOf = (m: NormalizedMetrics): number => ENGAGEMENT.reduce((sum, k) => sum + (m[k] ?? 0), 0);

/** Figures summed over readings: a name is present when any reading had it. */
function add(into: NormalizedMetrics, m: NormalizedMetrics): void {
  for (const [k, v] of Object.entries(m) as Array<[keyof NormalizedMetrics, number]>) into[k] = (into[k] ?? 0) + v;
}

interface Bucket {
  posts: number;
  jobIds: Set<string>;
  engagement: number;
  metrics: NormalizedMetrics;
}
const bucket = (): Bucket => ({ posts: 0, jobIds: new Set(), engagement: 0, metrics: {} });
const count = (b: Bucket, r: LatestReading) => {
  b.posts += 1;
  b.jobIds.add(r.jobId);
  b.engagement += engagementOf(r.metrics);
  add(b.metrics, r.metrics);
};

/** The day (YYYY-MM-DD), weekday and hour of an instant in a zone. */
function placeIn(zone: string): (at: number) => { date: string; weekday: Weekday; hour: number } {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', hourCycle: 'h23' });
  return (at) => {
    const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
    return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: String(parts.weekday).toLowerCase().slice(0, 3) as Weekday, hour: Number(parts.hour) };
  };
}

/**
 * GET /analytics/summary from the latest reading of each target published in the window:
 * totals, per platform, per day and per weekday-hour (in `zone`), the top 10 posts by
 * engagement, and the weekday-hours with the most engagement per post (at least 2 posts,
 * the best 5) as queue slots (`tue@09:00`).
 */
export function summarize(readings: readonly LatestReading[], w: { from: number; to: number; platform: Platform | null; zone: string }): AnalyticsSummary {
  const place = placeIn(w.zone);
  const totals = bucket();
  const platforms = new Map<Platform, Bucket>();
  const days = new Map<string, Bucket>();
  const slots = new Map<string, Bucket & { weekday: Weekday; hour: number }>();
  for (const r of readings) {
    count(totals, r);
    if (!platforms.has(r.platform)) platforms.set(r.platform, bucket());
    count(platforms.get(r.platform)!, r);
    const p = place(r.publishedAt);
    if (!days.has(p.date)) days.set(p.date, bucket());
    count(days.get(p.date)!, r);
    const key = `${p.weekday}@${String(p.hour).padStart(2, '0')}:00`;
    if (!slots.has(key)) slots.set(key, { ...bucket(), weekday: p.weekday, hour: p.hour });
    count(slots.get(key)!, r);
  }
  // `posts` counts targets (a post on three networks is three), `jobs` the posts they belong to.
  const figures = (b: Bucket) => ({ posts: b.posts, jobs: b.jobIds.size, engagement: b.engagement, metrics: b.metrics });
  const perPost = (b: Bucket) => (b.posts === 0 ? 0 : Math.round((b.engagement / b.posts) * 100) / 100);
  const bySlot = [...slots.entries()].sort(([a, x], [b, y]) => perPost(y) - perPost(x) || y.posts - x.posts || (a < b ? -1 : 1));
  return {
    success: true,
    from: formatInstant(w.from),
    to: formatInstant(w.to),
    platform: w.platform,
    zone: w.zone,
    totals: figures(totals),
    by_platform: [...platforms.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([platform, b]) => ({ platform, ...figures(b) })),
    by_day: [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, b]) => ({ date, ...figures(b) })),
    top_posts: [...readings]
      .sort((a, b) => engagementOf(b.metrics) - engagementOf(a.metrics) || b.publishedAt - a.publishedAt || (a.targetId < b.targetId ? -1 : 1))
      .slice(0, 10)
      .map((r) => ({ job_id: r.jobId, platform: r.platform, account: r.accountKey, type: r.type, post_id: r.postId, published_at: formatInstant(r.publishedAt), engagement: engagementOf(r.metrics), metrics: r.metrics })),
    by_weekday_hour: bySlot.map(([, b]) => ({ weekday: b.weekday, hour: b.hour, posts: b.posts, engagement: b.engagement, engagement_per_post: perPost(b) })),
    suggested_slots: bySlot.filter(([, b]) => b.posts >= 2).slice(0, 5).map(([key]) => key),
  };
}
