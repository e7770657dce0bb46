import { formatInstant, parseInstant, type AnalyticsSummary, type Platform, type PostMetricsResponse, type PostMetricsTarget } from '@socialpub/core';
import type { PostsService } from '../jobs/jobs-service';
import { userZone } from '../jobs/user-zone';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import { ServiceError } from '../util/service-error';
import type { Clock } from '../util/clock';
import type { Collector, ReadingProblem } from './collector';
import { jobReadingsCsv, latestReadingsCsv } from './export-csv';
import { summarize } from './summarize';

const DAY = 86_400_000;
/** The longest window a summary covers: the default retention. */
const MAX_WINDOW_DAYS = 400;

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

/** A window of publish times as the query gives it (instants; both optional) and one platform or all. */
type Window = { from?: string | undefined; to?: string | undefined; platform?: Platform | undefined };

/**
 * GET /analytics/posts and POST /analytics/refresh (docs/api.md "Analytics"): a post's
 * figures per target as stored, and a reading now before answering the same.
 */
export function createAnalyticsService(deps: { store: Store; clock: Clock; jobs: Pick<PostsService, 'get'>; collector: Pick<Collector, 'refreshJob'> }) {
  const { store } = deps;

  function present(jobId: string, fresh: ReadonlyMap<string, ReadingProblem>): PostMetricsResponse {
    const job = store.jobs.get(jobId);
    if (!job) throw new ServiceError('not_found', `no job ${jobId}`);
    const history = store.postMetrics.historyOfJob(jobId);
    const states = store.postMetrics.statesOfJob(jobId);
    const targets = job.targets.map((t): PostMetricsTarget => {
      const readings = history.get(t.id) ?? [];
      const latest = readings[readings.length - 1];
      const state = states.get(t.id);
      const stored = state?.problem ?? null;
      // This call's own problem first; else the stored one when it is newer than the latest reading.
      const problem =
        fresh.get(t.id) ??
        (t.status !== 'published' && t.status !== 'removed'
          ? { code: 'not_published', message: `${t.status}: no post to read figures of` }
          : stored && (!latest || stored.at >= latest.collectedAt)
            ? { code: stored.code, message: stored.message }
            : null);
      return {
        platform: t.platform,
        account: t.accountKey,
        type: t.type,
        status: t.status,
        post_id: t.postId,
        published_at: t.publishedAt === null ? null : formatInstant(t.publishedAt),
        collected_at: latest ? formatInstant(latest.collectedAt) : null,
        metrics: latest?.metrics ?? {},
        platform_metrics: latest?.platformMetrics ?? {},
        history: readings.map((r) => ({ collected_at: formatInstant(r.collectedAt), metrics: r.metrics, platform_metrics: r.platformMetrics })),
        next_collection_at: t.status === 'published' && state?.nextAt != null ? formatInstant(state.nextAt) : null,
        problem,
      };
    });
    return { success: true, job_id: jobId, targets };
  }

  /** A window of publish times from the query: default the last 30 days, at most MAX_WINDOW_DAYS. */
  function windowOf(q: Window): { from: number; to: number; platform: Platform | null } {
    const to = q.to !== undefined ? parseInstant(q.to)! : deps.clock.now();
    const from = q.from !== undefined ? parseInstant(q.from)! : to - 30 * DAY;
    if (from >= to) throw new ServiceError('invalid_request', 'from must be before to', [{ path: 'from', message: 'from must be before to' }]);
    if (to - from > MAX_WINDOW_DAYS * DAY) throw new ServiceError('invalid_request', `the window is at most ${MAX_WINDOW_DAYS} days`, [{ path: 'from', message: `at most ${MAX_WINDOW_DAYS} days before to` }]);
    return { from, to, platform: q.platform ?? null };
  }

  return {
    /** The figures as stored (reads nothing from the networks). */
    posts(user: User, jobId: string): PostMetricsResponse {
      deps.jobs.get(user, jobId);
      return present(jobId, new Map());
    },
    /** GET /analytics/summary: the latest figures of the user's posts published in the window (default the last 30 days), in the user's zone. */
    summary(user: User, q: Window): AnalyticsSummary {
      const w = windowOf(q);
      return summarize(store.postMetrics.latestInWindow(user.id, w.from, w.to, w.platform), { ...w, zone: userZone(store, user.id) ?? 'UTC' });
    },
    /**
     * GET /analytics/export.csv: a job's every reading (`job_id`), else the latest reading of
     * each post published in the window (as the summary counts them); with a file name.
     */
    exportCsv(user: User, q: Window & { job_id?: string | undefined }): { filename: string; csv: string } {
      if (q.job_id !== undefined) {
        deps.jobs.get(user, q.job_id);
        return { filename: `socialpub-figures-${q.job_id}.csv`, csv: jobReadingsCsv(present(q.job_id, new Map())) };
      }
      const w = windowOf(q);
      const day = (ms: number) => formatInstant(ms).slice(0, 10);
      return { filename: `socialpub-figures-${w.platform ?? 'all'}-${day(w.from)}-${day(w.to)}.csv`, csv: latestReadingsCsv(store.postMetrics.latestInWindow(user.id, w.from, w.to, w.platform)) };
    },
    /** Reads every published target now, then answers as posts(). */
    async refresh(user: User, jobId: string): Promise<PostMetricsResponse> {
      const post = deps.jobs.get(user, jobId);
      const job = store.jobs.get(jobId);
      if (!job?.targets.some((t) => t.status === 'published')) {
        throw new ServiceError('conflict', `nothing of ${jobId} is published, so there are no figures to read (status: ${post.status})`);
      }
      return present(jobId, await deps.collector.refreshJob(jobId));
    },
  };
}
