import type { NormalizedMetric } from '@socialpub/core';
import type { PostMetricsResponse, PostMetricsTarget } from '@socialpub/sdk';
import type { Ctx } from '../context';

/** The normalized figures in core's order (a record, so the compiler says when core adds one); no value from core is loaded at start. */
const ORDER: Record<NormalizedMetric, number> = { impressions: 0, views: 1, likes: 2, comments: 3, shares: 4, saves: 5, clicks: 6 };
const NORMALIZED_METRICS = (Object.keys(ORDER) as NormalizedMetric[]).sort((a, b) => ORDER[a] - ORDER[b]);

export interface StatsOptions {
  jobId: string;
  /** Read the figures now (POST /analytics/refresh) instead of the last reading. */
  refresh: boolean;
}

const BARS = '▁▂▃▄▅▆▇█';

/** A figure's readings as a sparkline, lowest ▁ to highest █ (one character a reading). */
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return values.map((v) => BARS[hi === lo ? BARS.length - 1 : Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1))]).join('');
}

/** The figure a target's sparkline follows: the first normalized one it has (impressions, else views, else likes...). */
const leadFigure = (t: PostMetricsTarget) => NORMALIZED_METRICS.find((m) => t.metrics[m] !== undefined);

/** The table: a row per target, a column per normalized figure any target has, then the trend of its lead figure. */
export function statsTable(res: PostMetricsResponse): string[] {
  const columns = NORMALIZED_METRICS.filter((m) => res.targets.some((t) => t.metrics[m] !== undefined));
  const rows = res.targets.map((t) => {
    const lead = leadFigure(t);
    const trend = lead ? `${lead} ${sparkline(t.history.map((h) => h.metrics[lead] ?? 0))}` : '';
    return [`${t.account}.${t.type}`, ...columns.map((m) => (t.metrics[m] === undefined ? '—' : String(t.metrics[m]))), t.collected_at ?? 'not read yet', trend];
  });
  const header = ['target', ...columns, 'read at', 'trend'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i > 0 && i <= columns.length ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const problems = res.targets.filter((t) => t.problem).map((t) => `${t.account}.${t.type}: ${t.problem!.code}: ${t.problem!.message}`);
  return [pad(header), ...rows.map(pad), ...problems];
}

/**
 * `socialpub stats <job_id>`: the job's figures per target (GET /analytics/posts, or with
 * --refresh POST /analytics/refresh), a table with a sparkline of each target's readings;
 * --json prints the API's answer.
 */
export async function stats(ctx: Ctx, o: StatsOptions): Promise<void> {
  const client = await ctx.client();
  const res = o.refresh ? await client.analytics.refresh(o.jobId) : await client.analytics.posts(o.jobId);
  const { success: _ok, ...data } = res;
  ctx.log.result(data, () => statsTable(res));
}
