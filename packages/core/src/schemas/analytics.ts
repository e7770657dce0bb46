import { z } from 'zod';
import { NORMALIZED_METRICS } from '../analytics-metrics';
import { InstantOut, PlatformId } from './common';

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
