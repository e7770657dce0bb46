import { describe, expect, it } from 'vitest';
import type { PostMetricsResponse, SandboxFaults } from '@socialpub/core';
import { createCollector } from '../../src/analytics/collector';
import { createTwitterAnalytics } from '../../src/platforms/twitter/analytics';
import { silentLogger } from '../../src/util/logger';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();
const HOUR = 3_600_000;

const statusesOf = (w: SandboxDaemon, jobId: string) => (w.db.prepare('SELECT status FROM targets WHERE job_id = ?').all(jobId) as Array<{ status: string }>).map((t) => t.status);

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  await advanceUntil(w.clock, () => statusesOf(w, jobId).every((s) => ['published', 'failed', 'needs_review'].includes(s)), 600);
  expect(statusesOf(w, jobId)).toEqual(['published']);
  return jobId;
}

const metricsOf = async (w: SandboxDaemon, jobId: string) => ((await w.call('GET', `/analytics/posts?job_id=${jobId}`)).body as unknown as PostMetricsResponse).targets[0]!;
const lookups = (w: SandboxDaemon) => (w.db.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM rate_windows WHERE class = 'analytics:twitter'").get() as { n: number }).n;

describe('the collector yields to publishing (issue 36)', () => {
  it('leaves a connection alone while a publish of it is due within two minutes, and reads once it is out', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const first = await publishAndSettle(w, { caption: 'First out', platforms: ['twitter'] });
    const publishedAt = (w.db.prepare('SELECT published_at FROM targets WHERE job_id = ?').get(first) as { published_at: number }).published_at;
    const dueAt = Math.ceil((publishedAt + HOUR + 60_000) / 1000) * 1000;
    const next = await w.call('POST', '/content/publish', { caption: 'Second, on time', platforms: ['twitter'], scheduled_for: new Date(dueAt).toISOString() });
    expect(next.status, JSON.stringify(next.body)).toBe(200);

    w.clock.set(publishedAt + HOUR);
    // Due, but held back while the account has a publish coming: nothing read, the reading still due.
    expect(await w.services.collector.collectDue()).toBe(0);
    const waiting = await metricsOf(w, first);
    expect(waiting.history).toEqual([]);
    expect(waiting.next_collection_at).toBe(new Date(publishedAt + HOUR).toISOString());
    expect(lookups(w)).toBe(0);
    // Asked for now, it says why it waits.
    const refresh = await w.call('POST', '/analytics/refresh', { job_id: first });
    expect((refresh.body as unknown as PostMetricsResponse).targets[0]!.problem?.code).toBe('publishing_first');
    expect(lookups(w)).toBe(0);

    // The publish goes out at its time; then the reading.
    await advanceUntil(w.clock, () => statusesOf(w, String(next.body.job_id)).includes('published'), 600);
    const publishedNext = (w.db.prepare('SELECT published_at FROM targets WHERE job_id = ?').get(String(next.body.job_id)) as { published_at: number }).published_at;
    expect(publishedNext).toBeGreaterThanOrEqual(dueAt);
    expect(publishedNext - dueAt).toBeLessThan(5_000);
    await w.services.collector.collectDue();
    const read = await metricsOf(w, first);
    expect(read.history).toHaveLength(1);
    expect(read.metrics.impressions).toBeGreaterThan(0);
    expect(lookups(w)).toBe(1);
  });

  it('with a reading and a publish due on the same connection at the same instant, calls the network to publish first, whichever looks first', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const first = await publishAndSettle(w, { caption: 'Read me at one hour', platforms: ['twitter'] });
    const publishedAt = (w.db.prepare('SELECT published_at FROM targets WHERE job_id = ?').get(first) as { published_at: number }).published_at;
    // The second post is due at the very instant the first's 1 h reading is (to the second).
    const due = Math.ceil((publishedAt + HOUR) / 1000) * 1000;
    const next = await w.call('POST', '/content/publish', { caption: 'Due with the reading', platforms: ['twitter'], scheduled_for: new Date(due).toISOString() });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const secondStatus = () => statusesOf(w, String(next.body.job_id))[0];
    // Every network call in order: the reader's (with the second post's state when it reads) and the publishes (from X's simulator).
    const calls: string[] = [];
    const real = createTwitterAnalytics();
    const collector = createCollector({
      store: w.store,
      clock: w.clock,
      logger: silentLogger,
      readers: new Map([['twitter', { ...real, read: (ctx, ids) => (calls.push(`read (second post ${secondStatus()})`), real.read(ctx, ids)) }]]),
      calls: w.services.calls,
      publishingBusy: (userId, platform, connectionId) => w.publisher().connectionBusy(userId, platform, connectionId),
    });
    await w.clock.advance(due - 1_000 - w.clock.now());
    await collector.collectDue(); // enrols the first post (its reading at publishedAt + 1 h)
    expect(calls).toEqual([]);

    // The instant both are due: the collector looks first, before the scheduler's turn, and reads nothing.
    w.clock.set(due);
    expect(secondStatus()).toBe('scheduled');
    expect(await collector.collectDue()).toBe(0);
    expect(calls).toEqual([]);
    // The scheduler's turn: the publish goes out, at its time.
    await advanceUntil(w.clock, () => secondStatus() === 'published', 60, 100);
    const publishedSecond = (w.db.prepare('SELECT published_at FROM targets WHERE job_id = ?').get(String(next.body.job_id)) as { published_at: number }).published_at;
    expect(publishedSecond - due).toBeLessThan(1_000);
    calls.push('published');
    // Then the reading.
    expect(await collector.collectDue()).toBe(1);
    expect(calls).toEqual(['published', 'read (second post published)']);
    expect((await metricsOf(w, first)).history).toHaveLength(1);
  });

  it("waits whole while this daemon's publisher has any target waiting or in flight (a burst on other accounts too), at most 5 minutes in a row", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const first = await publishAndSettle(w, { caption: 'Read me once the burst is out', platforms: ['twitter'] });
    const publishedAt = (w.db.prepare('SELECT published_at FROM targets WHERE job_id = ?').get(first) as { published_at: number }).published_at;
    let backlog = 0;
    const collector = createCollector({
      store: w.store,
      clock: w.clock,
      logger: silentLogger,
      readers: new Map([['twitter', createTwitterAnalytics()]]),
      calls: w.services.calls,
      publishingBacklog: () => backlog,
    });
    w.clock.set(publishedAt + HOUR);
    // Another account's burst in this daemon: not even the look at the database (nothing enrolled, nothing read).
    backlog = 40;
    expect(await collector.collectDue()).toBe(0);
    expect(w.db.prepare('SELECT COUNT(*) AS n FROM metrics_collection').get()).toEqual({ n: 0 });
    w.clock.set(publishedAt + HOUR + 4 * 60_000);
    expect(await collector.collectDue()).toBe(0);
    expect(lookups(w)).toBe(0);
    // The burst is out: the look reads.
    backlog = 0;
    expect(await collector.collectDue()).toBe(1);
    expect((await metricsOf(w, first)).history).toHaveLength(1);
    // A publisher never idle does not starve the schedule: after 5 minutes of waiting in a row, a look goes ahead.
    w.db.prepare('UPDATE metrics_collection SET next_at = ?').run(w.clock.now());
    backlog = 1;
    expect(await collector.collectDue()).toBe(0);
    w.clock.set(w.clock.now() + 5 * 60_000);
    expect(await collector.collectDue()).toBe(1);
    expect((await metricsOf(w, first)).history).toHaveLength(2);
  });

  it('reads nothing while a publish of the connection is in flight', async () => {
    const faults: SandboxFaults = {};
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], sandboxFaults: faults });
    const first = await publishAndSettle(w, { caption: 'Out already', platforms: ['twitter'] });
    // Every X call now takes 400 ms (real time): the next publish is in flight for a while.
    faults.twitter = { latency_ms: { min: 400, max: 400 } };
    const slow = await w.call('POST', '/content/publish', { publish_now: true, caption: 'Slow one', platforms: ['twitter'] });
    await advanceUntil(w.clock, () => statusesOf(w, String(slow.body.job_id)).includes('publishing'), 100, 100);
    expect(statusesOf(w, String(slow.body.job_id))).toEqual(['publishing']);
    const refresh = await w.call('POST', '/analytics/refresh', { job_id: first });
    expect((refresh.body as unknown as PostMetricsResponse).targets[0]!.problem?.code).toBe('publishing_first');
    expect(lookups(w)).toBe(0);
    await advanceUntil(w.clock, () => statusesOf(w, String(slow.body.job_id)).includes('published'), 600);
    const after = await w.call('POST', '/analytics/refresh', { job_id: first });
    expect((after.body as unknown as PostMetricsResponse).targets[0]!.problem).toBeNull();
  });

  it("keeps within the connection's budget and takes a network's 429 on a read without pausing publishing", async () => {
    const faults: SandboxFaults = {};
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], sandboxFaults: faults });
    const a = await publishAndSettle(w, { caption: 'Budget one', platforms: ['twitter'] });
    const b = await publishAndSettle(w, { caption: 'Budget two', platforms: ['twitter'] });
    // A budget of one call per 15 minutes (X's reader, its budget narrowed).
    const collector = createCollector({
      store: w.store,
      clock: w.clock,
      logger: silentLogger,
      readers: new Map([['twitter', { ...createTwitterAnalytics(), budget: { calls: 1, windowMs: 15 * 60_000 } }]]),
      calls: w.services.calls,
    });
    expect((await collector.refreshJob(a)).size).toBe(0);
    const refused = (await collector.refreshJob(b)).values().next().value;
    expect(refused?.code).toBe('budget_used');
    expect(lookups(w)).toBe(1);

    // X answers 429 to the read: the collector waits for X's reset; publishing is not paused.
    faults.twitter = { rate_limited: 1 };
    const limited = await w.call('POST', '/analytics/refresh', { job_id: a });
    expect((limited.body as unknown as PostMetricsResponse).targets[0]!.problem?.code).toBe('rate_limited');
    expect(w.db.prepare('SELECT COUNT(*) AS n FROM platform_pauses').get()).toEqual({ n: 0 });
    faults.twitter = {};
    expect(((await w.call('POST', '/analytics/refresh', { job_id: a })).body as unknown as PostMetricsResponse).targets[0]!.problem?.code).toBe('rate_limited');
    // The pause is in the database: a collector started afresh (a restart, another daemon over it) keeps to it, calling nothing.
    expect(w.db.prepare('SELECT COUNT(*) AS n FROM analytics_pauses WHERE until_at > ?').get(w.clock.now())).toEqual({ n: 1 });
    const afresh = createCollector({ store: w.store, clock: w.clock, logger: silentLogger, readers: new Map([['twitter', createTwitterAnalytics()]]), calls: w.services.calls });
    const calledBefore = lookups(w);
    expect([...(await afresh.refreshJob(a)).values()].map((p) => p.code)).toEqual(['rate_limited']);
    expect(lookups(w)).toBe(calledBefore);
    await w.clock.advance(16 * 60_000);
    expect(((await w.call('POST', '/analytics/refresh', { job_id: a })).body as unknown as PostMetricsResponse).targets[0]!.problem).toBeNull();
  });
});
