import { z } from 'zod';
import { NORMALIZED_METRICS } from '../analytics-metrics';
import { parseInstant } from '../time';
import { InstantIn, InstantOut, PlatformId } from './common';

const Count = z.number().int().nonnegative();

/** The normalized figures: only those the network has. */
export const NormalizedMetricsSchema = z
  .object(Object.fromEntries(NORMALIZED_METRICS.map((m) => [m, Count.optional()])) as Record<(typeof NORMALIZED_METRICS)[number], z.ZodOptional<typeof Count>>)
  .meta({
    id: 'NormalizedMetrics',
    description:
      'Figures under common names, each only where the network has it: `impressions` (shown), `views` (viewed or played), `likes`, `comments` (replies), `shares` (reposts, retweets, reblogs, quotes), `saves` (bookmarks), `clicks` (link and profile clicks).',
  });

/** The network's own figures, by its own names, as read. */
export const PlatformMetricsSchema = z.record(z.string(), z.number()).meta({
  id: 'PlatformMetrics',
  description: "The network's own field names and values as read (X `like_count`, Mastodon `favourites_count`, Bluesky `likeCount`).",
});

export const MetricsSnapshotSchema = z
  .object({
    collected_at: InstantOut,
    metrics: NormalizedMetricsSchema,
    platform_metrics: PlatformMetricsSchema,
  })
  .meta({ id: 'MetricsSnapshot', description: 'One reading of a post’s figures.' });

export const PostMetricsTargetSchema = z
  .object({
    platform: PlatformId,
    account: z.string().meta({ description: 'The account the post went out through (`twitter` or `twitter:brand`).' }),
    type: z.string(),
    status: z.string().meta({ description: "The target's status (figures are read for `published` targets)." }),
    post_id: z.string().nullable(),
    published_at: InstantOut.nullable(),
    collected_at: InstantOut.nullable().meta({ description: 'When the latest figures were read; null before the first reading.' }),
    metrics: NormalizedMetricsSchema,
    platform_metrics: PlatformMetricsSchema,
    history: z.array(MetricsSnapshotSchema).meta({ description: 'Every reading kept, oldest first (the latest is the last).' }),
    next_collection_at: InstantOut.nullable().meta({ description: 'When the collector reads it next on its own (about 1 h, 24 h, 72 h, 7 d and 30 d after publishing); null when no reading is left.' }),
    problem: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why the latest attempt read nothing (`not_supported`, `missing_scope` with how to reconnect, `platform_not_connected`, a platform error); null when it read.' }),
  })
  .meta({ id: 'PostMetricsTarget' });
export type PostMetricsTarget = z.infer<typeof PostMetricsTargetSchema>;

export const PostMetricsResponseSchema = z
  .object({
    success: z.literal(true),
    job_id: z.string(),
    targets: z.array(PostMetricsTargetSchema),
  })
  .meta({ id: 'PostMetricsResponse', description: 'A post’s figures per target: the latest, normalized and as the network names them, and their history.' });
export type PostMetricsResponse = z.infer<typeof PostMetricsResponseSchema>;

export const AnalyticsRefreshRequestSchema = z
  .object({ job_id: z.string({ error: 'job_id is required' }).min(1, { error: 'job_id is required' }) })
  .meta({ id: 'AnalyticsRefreshRequest', description: 'The post whose figures to read now.' });

const AnalyticsWindow = z.object({
  from: InstantIn.optional(),
  to: InstantIn.optional(),
  platform: PlatformId.optional(),
});
const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }) => q.from === undefined || q.to === undefined || parseInstant(q.from)! < parseInstant(q.to)!;

/** GET /analytics/summary's query: a window of publish times (default the last 30 days) and, optionally, one platform. */
export const AnalyticsSummaryQuerySchema = AnalyticsWindow.refine(fromBeforeTo, { error: 'from must be before to', path: ['from'] });

/**
 * GET /analytics/export.csv's query: one job's every reading (`job_id`; the window is then
 * not read), or the latest reading of each post published in the window (the summary's:
 * default the last 30 days), optionally of one platform.
 */
export const AnalyticsExportQuerySchema = AnalyticsWindow.extend({ job_id: z.string().min(1, { error: 'job_id must not be empty' }).optional() }).refine(fromBeforeTo, {
  error: 'from must be before to',
  path: ['from'],
});

/** A CSV answer (RFC 4180, a header row first, CRLF line ends). */
export const CsvTextSchema = z.string().meta({ id: 'CsvText', description: 'RFC 4180 CSV: a header row, then one row per reading; fields quoted where they hold a comma, a quote or a line break.' });

const SummaryFigures = z.object({
  posts: Count.meta({ description: 'Published targets counted (with at least one reading): a post out on three networks counts 3 here.' }),
  jobs: Count.meta({ description: 'Distinct posts (job_…) those targets belong to: a post out on three networks counts 1 here.' }),
  engagement: Count,
  metrics: NormalizedMetricsSchema,
});

export const AnalyticsSummarySchema = z
  .object({
    success: z.literal(true),
    from: InstantOut,
    to: InstantOut,
    platform: PlatformId.nullable(),
    zone: z.string().meta({ description: 'The zone days and hours are counted in: your timezone setting, else UTC.' }),
    totals: SummaryFigures,
    by_platform: z.array(SummaryFigures.extend({ platform: PlatformId })),
    by_day: z.array(SummaryFigures.extend({ date: z.string().meta({ description: 'The day of publishing in `zone`, YYYY-MM-DD.' }) })),
    top_posts: z.array(
      z.object({
        job_id: z.string(),
        platform: PlatformId,
        account: z.string(),
        type: z.string(),
        post_id: z.string(),
        published_at: InstantOut,
        engagement: Count,
        metrics: NormalizedMetricsSchema,
      }),
    ),
    by_weekday_hour: z.array(
      z.object({
        weekday: z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
        hour: z.number().int().min(0).max(23),
        posts: Count,
        engagement: Count,
        engagement_per_post: z.number(),
      }),
    ),
    suggested_slots: z.array(z.string()).meta({
      description: 'The weekday-hours whose posts drew the most engagement per post (at least 2 posts each), best first, written as the posting queue takes them (`socialpub queue set tue@09:00 …`, PUT /queue).',
    }),
  })
  .meta({
    id: 'AnalyticsSummary',
    description:
      'Figures of the posts published in the window (their latest readings): totals, per platform, per day, the top posts by engagement (likes + comments + shares + saves + clicks) and engagement per weekday and hour, the data for "best time to post".',
  });
export type AnalyticsSummary = z.infer<typeof AnalyticsSummarySchema>;
