import type { NormalizedMetric } from '@socialpub/core';
import type { AnalyticsSummary, PostMetricsResponse, PostMetricsTarget } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { UsageError } from '../errors';
import { parsePlatform } from '../platform-name';
import { shortTime } from '../ui/format';

/** The normalized figures in core's order (a record, so the compiler says when core adds one); no value from core is loaded at start. */
const ORDER: Record<NormalizedMetric, number> = { impressions: 0, views: 1, likes: 2, comments: 3, shares: 4, saves: 5, clicks: 6 };
const NORMALIZED_METRICS = (Object.keys(ORDER) as NormalizedMetric[]).sort((a, b) => ORDER[a] - ORDER[b]);

export interface StatsOptions {
  /** A job's figures per target; null: the summary of a window. */
  jobId: string | null;
  /** Read the job's figures now (POST /analytics/refresh) instead of the last reading. */
  refresh: boolean;
  /** The summary's window back from now (`7d`); null: 30 days. */
  since: string | null;
  /** The summary's one platform; null: all. */
  platform: string | null;
  /** CSV on stdout instead of the table. */
  csv?: boolean;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const field = (v: string | number | null | undefined) => {
  const t = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};
const row = (cells: Array<string | number | null | undefined>) => cells.map(field).join(',');

/** Every reading of a job, one row each, oldest first per target: the normalized figures, then the network's own as JSON. */
export function readingsCsv(res: PostMetricsResponse): string[] {
  const head = row(['job_id', 'platform', 'account', 'type', 'post_id', 'collected_at', ...NORMALIZED_METRICS, 'platform_metrics']);
  const rows = res.targets.flatMap((t) =>
    t.history.map((h) => row([res.job_id, t.platform, t.account, t.type, t.post_id, h.collected_at, ...NORMALIZED_METRICS.map((m) => h.metrics[m]), JSON.stringify(h.platform_metrics)])),
  );
  return [head, ...rows];
}

/** The summary's days, one row each. */
export function daysCsv(s: AnalyticsSummary): string[] {
  return [row(['date', 'posts', 'engagement', ...NORMALIZED_METRICS]), ...s.by_day.map((d) => row([d.date, d.posts, d.engagement, ...NORMALIZED_METRICS.map((m) => d.metrics[m])]))];
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `24h`, `7d`, `2w` in ms, or a usage error. */
export function parseSince(text: string): number {
  const m = /^(\d+)([hdw])$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0;
  if (!m || ms <= 0 || ms > 400 * 86_400_000) throw new UsageError(`--since "${text}": a stretch back from now like 24h, 7d or 2w (at most 400 days)`);
  return ms;
}

/**
 * The summary as a person reads it: totals, a row per platform, engagement per day as a
 * sparkline, the top posts, the best times. The API's `posts` counts published targets with
 * a reading (a job out on three networks is three) and `jobs` the posts they belong to, so
 * the words give both; the window's ends are in the summary's zone (the timezone setting,
 * else UTC) like every human time.
 */
export function summaryLines(s: AnalyticsSummary): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [
    `${plural(s.totals.jobs, 'post')} (${plural(s.totals.posts, 'target')}) with figures, published ${shortTime(s.from, s.zone)} – ${shortTime(s.to, s.zone)}${s.platform ? ` on ${s.platform}` : ''}: engagement ${s.totals.engagement}`,
  ];
  const columns = NORMALIZED_METRICS.filter((m) => s.by_platform.some((p) => p.metrics[m] !== undefined));
  const rows = s.by_platform.map((p) => [p.platform, String(p.jobs), String(p.posts), String(p.engagement), ...columns.map((m) => (p.metrics[m] === undefined ? '—' : String(p.metrics[m])))]);
  const header = ['PLATFORM', 'POSTS', 'TARGETS', 'ENGAGEMENT', ...columns.map((m) => m.toUpperCase())];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  if (rows.length > 0) lines.push(pad(header), ...rows.map(pad));
  if (s.by_day.length > 1) lines.push(`engagement by day ${sparkline(s.by_day.map((d) => d.engagement))} (${s.by_day[0]!.date} – ${s.by_day[s.by_day.length - 1]!.date})`);
  for (const p of s.top_posts.slice(0, 3)) lines.push(`top: ${p.job_id}  ${p.account}.${p.type}  engagement ${p.engagement}`);
  if (s.suggested_slots.length > 0) lines.push(`best times (${s.zone}): ${s.suggested_slots.join(' ')}  (socialpub queue set ${s.suggested_slots.join(' ')})`);
  return lines;
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

/** The table: a row per target, a column per normalized figure any target has, the time of the latest reading in `zone` (the post's), then the trend of its lead figure. */
export function statsTable(res: PostMetricsResponse, zone?: string | null): string[] {
  const columns = NORMALIZED_METRICS.filter((m) => res.targets.some((t) => t.metrics[m] !== undefined));
  const rows = res.targets.map((t) => {
    const lead = leadFigure(t);
    const trend = lead ? `${lead} ${sparkline(t.history.map((h) => h.metrics[lead] ?? 0))}` : '';
    return [`${t.account}.${t.type}`, ...columns.map((m) => (t.metrics[m] === undefined ? '—' : String(t.metrics[m]))), t.collected_at ? shortTime(t.collected_at, zone) : 'not read yet', trend];
  });
  const header = ['TARGET', ...columns.map((m) => m.toUpperCase()), 'READ AT', 'TREND'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i > 0 && i <= columns.length ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const problems = res.targets.filter((t) => t.problem).map((t) => `${t.account}.${t.type}: ${t.problem!.code}: ${t.problem!.message}`);
  return [pad(header), ...rows.map(pad), ...problems];
}

/**
 * `socialpub stats <job_id>`: the job's figures per target (GET /analytics/posts, or with
 * --refresh POST /analytics/refresh), a table with a sparkline of each target's readings.
 * `socialpub stats [--since 7d] [--platform p]`: GET /analytics/summary of the posts
 * published since then. --json prints the API's answer.
 */
export async function stats(ctx: Ctx, o: StatsOptions): Promise<void> {
  if (o.jobId === null) {
    if (o.refresh) throw new UsageError('--refresh reads one job: give its id (socialpub stats job_… --refresh)');
    const since = o.since === null ? 30 * 86_400_000 : parseSince(o.since);
    const platform = o.platform === null ? undefined : parsePlatform(o.platform, '--platform');
    const client = await ctx.client();
    const summary = await client.analytics.summary({ from: new Date(Date.now() - since).toISOString(), ...(platform ? { platform } : {}) });
    const { success: _ok, ...data } = summary;
    ctx.log.result(data, () => (o.csv ? daysCsv(summary) : summaryLines(summary)));
    return;
  }
  if (o.since !== null || o.platform !== null) throw new UsageError('--since and --platform are for the summary (socialpub stats without a job id)');
  const client = await ctx.client();
  const res = o.refresh ? await client.analytics.refresh(o.jobId) : await client.analytics.posts(o.jobId);
  const { success: _ok, ...data } = res;
  if (ctx.log.json || o.csv) return ctx.log.result(data, () => readingsCsv(res));
  // The table's times in the post's zone, as `schedule show` prints them.
  const { post } = await client.scheduled.get(o.jobId);
  ctx.log.result(data, () => statsTable(res, post.timezone));
}
