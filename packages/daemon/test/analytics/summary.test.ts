import { describe, expect, it } from 'vitest';
import type { AnalyticsSummary, NormalizedMetrics, PostMetricsResponse } from '@socialpub/core';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  const statuses = () => (w.db.prepare('SELECT status FROM targets WHERE job_id = ?').all(jobId) as Array<{ status: string }>).map((t) => t.status);
  await advanceUntil(w.clock, () => statuses().every((s) => ['published', 'failed', 'needs_review'].includes(s)), 600);
  expect(statuses()).toEqual(statuses().map(() => 'published'));
  return jobId;
}

const engagement = (m: NormalizedMetrics) => (m.likes ?? 0) + (m.comments ?? 0) + (m.shares ?? 0) + (m.saves ?? 0) + (m.clicks ?? 0);

describe('GET /analytics/summary (issue 36)', () => {
  it("adds up the latest readings per platform, day and weekday-hour in the user's zone, ranks the top posts and suggests queue slots", async () => {
    // Monday 2026-12-21 08:00 UTC = 09:00 in Berlin.
    const w = await startSandboxDaemon(defer, { platforms: ['twitter', 'mastodon'], start: Date.UTC(2026, 11, 21, 8, 0, 0) });
    expect((await w.call('PATCH', '/settings', { timezone: 'Europe/Berlin' })).status).toBe(200);
    const jobs: string[] = [];
    // Two Monday-09:00 posts, one on Tuesday at 15:00 (Berlin).
    jobs.push(await publishAndSettle(w, { caption: 'Monday one', platforms: ['twitter', 'mastodon'] }));
    w.clock.set(Date.UTC(2026, 11, 21, 8, 20, 0));
    jobs.push(await publishAndSettle(w, { caption: 'Monday two', platforms: ['twitter'] }));
    w.clock.set(Date.UTC(2026, 11, 22, 14, 10, 0));
    jobs.push(await publishAndSettle(w, { caption: 'Tuesday', platforms: ['twitter'] }));
    w.clock.set(Date.UTC(2026, 11, 23, 9, 0, 0));
    // Two readings of the first job: the summary counts each target's latest only.
    const readings = new Map<string, NormalizedMetrics>();
    for (const job of [jobs[0]!, ...jobs]) {
      const r = (await w.call('POST', '/analytics/refresh', { job_id: job })).body as unknown as PostMetricsResponse;
      for (const t of r.targets) readings.set(`${job}:${t.platform}`, t.metrics);
      w.clock.set(w.clock.now() + 60_000);
    }

    const res = await w.call('GET', '/analytics/summary?from=2026-12-20T00:00:00Z&to=2026-12-24T00:00:00Z');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body as unknown as AnalyticsSummary;
    expect(s.zone).toBe('Europe/Berlin');
    const all = [...readings.values()];
    // posts counts targets (Monday one is out on both networks), jobs the posts they belong to.
    expect([s.totals.posts, s.totals.jobs]).toEqual([4, 3]);
    expect(s.totals.engagement).toBe(all.reduce((n, m) => n + engagement(m), 0));
    expect(s.totals.metrics.likes).toBe(all.reduce((n, m) => n + (m.likes ?? 0), 0));
    expect(s.totals.metrics.impressions).toBe(all.reduce((n, m) => n + (m.impressions ?? 0), 0));
    expect(s.by_platform.map((p) => [p.platform, p.posts, p.jobs])).toEqual([['mastodon', 1, 1], ['twitter', 3, 3]]);
    expect(s.by_platform.reduce((n, p) => n + p.engagement, 0)).toBe(s.totals.engagement);
    expect(s.by_day.map((d) => [d.date, d.posts, d.jobs])).toEqual([['2026-12-21', 3, 2], ['2026-12-22', 1, 1]]);
    const slots = Object.fromEntries(s.by_weekday_hour.map((b) => [`${b.weekday}@${b.hour}`, b.posts]));
    expect(slots).toEqual({ 'mon@9': 3, 'tue@15': 1 });
    // Only a weekday-hour with at least two posts is suggested, as the queue writes slots.
    expect(s.suggested_slots).toEqual(['mon@09:00']);
    const top = s.top_posts.map((p) => p.engagement);
    expect([...top].sort((a, b) => b - a)).toEqual(top);
    expect(s.top_posts[0]!.job_id).toMatch(/^job_/);

    const onlyMastodon = (await w.call('GET', '/analytics/summary?from=2026-12-20T00:00:00Z&to=2026-12-24T00:00:00Z&platform=mastodon')).body as unknown as AnalyticsSummary;
    expect([onlyMastodon.platform, onlyMastodon.totals.posts]).toEqual(['mastodon', 1]);
    // Default window: the 30 days before now.
    const recent = (await w.call('GET', '/analytics/summary')).body as unknown as AnalyticsSummary;
    expect([recent.to, recent.totals.posts]).toEqual([new Date(w.clock.now()).toISOString(), 4]);
    const bad = await w.call('GET', '/analytics/summary?from=2026-12-24T00:00:00Z&to=2026-12-20T00:00:00Z');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('from must be before to');
  });

  it('exports the figures as CSV from the API: the window\'s latest readings, or one job\'s every reading, as a download', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter', 'mastodon'], start: Date.UTC(2026, 11, 21, 8, 0, 0) });
    const first = await publishAndSettle(w, { caption: 'First, with "quotes", and commas', platforms: ['twitter', 'mastodon'] });
    w.clock.set(Date.UTC(2026, 11, 22, 8, 0, 0));
    const second = await publishAndSettle(w, { caption: 'Second', platforms: ['twitter'] });
    w.clock.set(Date.UTC(2026, 11, 23, 9, 0, 0));
    const r1 = (await w.call('POST', '/analytics/refresh', { job_id: first })).body as unknown as PostMetricsResponse;
    w.clock.set(Date.UTC(2026, 11, 23, 10, 0, 0));
    const r2 = (await w.call('POST', '/analytics/refresh', { job_id: first })).body as unknown as PostMetricsResponse;
    await w.call('POST', '/analytics/refresh', { job_id: second });
    const csv = async (query: string) => {
      const res = await fetch(`${w.url}/api/agents/v1/analytics/export.csv${query}`, { headers: { 'x-api-key': w.key } });
      return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text: await res.text() };
    };
    const HEAD = 'job_id,platform,account,type,post_id,published_at,collected_at,impressions,views,likes,comments,shares,saves,clicks,platform_metrics';
    const line = (jobId: string, t: PostMetricsResponse['targets'][number], h: PostMetricsResponse['targets'][number]['history'][number]) =>
      [jobId, t.platform, t.account, t.type, t.post_id, t.published_at, h.collected_at, ...['impressions', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'].map((m) => h.metrics[m as keyof typeof h.metrics] ?? ''), `"${JSON.stringify(h.platform_metrics).replace(/"/g, '""')}"`].join(',');

    // One job: every reading, oldest first per target.
    const job = await csv(`?job_id=${first}`);
    expect([job.status, job.type, job.disposition]).toEqual([200, 'text/csv; charset=utf-8', `attachment; filename="socialpub-figures-${first}.csv"`]);
    expect(job.text).toBe([HEAD, ...r2.targets.flatMap((t) => t.history.map((h) => line(first, t, h)))].join('\r\n') + '\r\n');
    expect(job.text.split('\r\n')).toHaveLength(1 + 2 * r1.targets.length + 1);

    // A window: each target's latest reading, in publish order (one platform when asked).
    const win = await csv('?from=2026-12-21T00:00:00Z&to=2026-12-23T00:00:00Z');
    expect(win.disposition).toBe('attachment; filename="socialpub-figures-all-2026-12-21-2026-12-23.csv"');
    const rows = win.text.trimEnd().split('\r\n');
    expect(rows[0]).toBe(HEAD);
    const who = rows.slice(1).map((r) => r.split(',').slice(0, 2).join(','));
    expect([...who].sort()).toEqual([`${first},mastodon`, `${first},twitter`, `${second},twitter`].sort());
    expect(who[2]).toBe(`${second},twitter`);
    const latestTwitter = r2.targets.find((t) => t.platform === 'twitter')!;
    expect(rows).toContain(line(first, latestTwitter, latestTwitter.history[1]!));
    const mastodonOnly = (await csv('?from=2026-12-21T00:00:00Z&to=2026-12-23T00:00:00Z&platform=mastodon')).text.trimEnd().split('\r\n');
    expect(mastodonOnly.slice(1).map((r) => r.split(',')[1])).toEqual(['mastodon']);

    // Bad input: the one error body.
    const bad = await csv('?from=2026-12-24T00:00:00Z&to=2026-12-20T00:00:00Z');
    expect([bad.status, JSON.parse(bad.text).error.code]).toEqual([400, 'invalid_request']);
    expect((await csv('?job_id=job_nope')).status).toBe(404);
  });
});
