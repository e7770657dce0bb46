import { formatInstant, NORMALIZED_METRICS, type PostMetricsResponse } from '@socialpub/core';
import type { LatestReading } from '../store/post-metrics';

/** The columns of GET /analytics/export.csv (docs/api.md): who, when, the normalized figures, then the network's own as JSON. */
const HEAD = ['job_id', 'platform', 'account', 'type', 'post_id', 'published_at', 'collected_at', ...NORMALIZED_METRICS, 'platform_metrics'];

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
const field = (v: string | number | null | undefined) => {
  const t = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};
const row = (cells: ReadonlyArray<string | number | null | undefined>) => cells.map(field).join(',');
/** Lines joined by CRLF, as RFC 4180 writes them, with a final line end. */
const text = (rows: string[]) => `${rows.join('\r\n')}\r\n`;

/** Every reading of a job's targets, oldest first per target. */
export function jobReadingsCsv(res: PostMetricsResponse): string {
  const rows = res.targets.flatMap((t) =>
    t.history.map((h) => row([res.job_id, t.platform, t.account, t.type, t.post_id, t.published_at, h.collected_at, ...NORMALIZED_METRICS.map((m) => h.metrics[m]), JSON.stringify(h.platform_metrics)])),
  );
  return text([row(HEAD), ...rows]);
}

/** The latest reading of each target published in a window, in publish order. */
export function latestReadingsCsv(readings: readonly LatestReading[]): string {
  const rows = readings.map((r) =>
    row([r.jobId, r.platform, r.accountKey, r.type, r.postId, formatInstant(r.publishedAt), formatInstant(r.collectedAt), ...NORMALIZED_METRICS.map((m) => r.metrics[m]), JSON.stringify(r.platformMetrics)]),
  );
  return text([row(HEAD), ...rows]);
}
