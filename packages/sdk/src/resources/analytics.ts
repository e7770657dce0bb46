import { ROUTES, type AnalyticsSummary, type Platform, type PostMetricsResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class AnalyticsResource extends Resource {
  /** GET /analytics/posts?job_id=: a published post's figures per target as last read, with their history (reads nothing from the networks). */
  posts(jobId: string, options?: RequestOptions): Promise<PostMetricsResponse> {
    return this.transport.call(ROUTES['analytics.posts'], { query: { job_id: jobId } }, options);
  }

  /** POST /analytics/refresh: reads the post's figures from each network now, then answers as posts(). */
  refresh(jobId: string, options?: RequestOptions): Promise<PostMetricsResponse> {
    return this.transport.call(ROUTES['analytics.refresh'], { body: { job_id: jobId } }, options);
  }

  /**
   * GET /analytics/export.csv: the figures as CSV text (RFC 4180, a header row first) — a
   * job's every reading (`job_id`), or the latest reading of each post published in the
   * window (default the last 30 days).
   */
  exportCsv(params: { job_id?: string; from?: string; to?: string; platform?: Platform } = {}, options?: RequestOptions): Promise<string> {
    return this.transport.call(ROUTES['analytics.export'], { query: params }, options);
  }

  /**
   * GET /analytics/summary: totals, per platform and day, top posts and engagement per weekday-hour for posts published in the window (default the last 30 days).
   * `posts` counts published targets (a post on three networks is 3), `jobs` the posts (1).
   */
  summary(params: { from?: string; to?: string; platform?: Platform } = {}, options?: RequestOptions): Promise<AnalyticsSummary> {
    return this.transport.call(ROUTES['analytics.summary'], { query: params }, options);
  }
}
