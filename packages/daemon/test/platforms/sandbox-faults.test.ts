import { describe, expect, it } from 'vitest';
import type { Platform, SandboxFaults } from '@socialpub/core';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { createAdapters } from '../../src/platforms/registry';
import type { AppliedFault } from '../../src/platforms/sandbox/fault-stage';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { listSandboxPosts } from '../support/sandbox-records';

const defer = useCleanups();

type Target = { id: string; platform: string; status: string; attempts: number; next_attempt_at: number | null; error_code: string | null; error_message: string | null; post_id: string | null };
const targets = (w: SandboxDaemon) => w.db.prepare('SELECT id, platform, status, attempts, next_attempt_at, error_code, error_message, post_id FROM targets ORDER BY platform').all() as Target[];
const attempts = (w: SandboxDaemon) => w.db.prepare('SELECT target_id, number, outcome, error_code, error_message FROM attempts ORDER BY id').all();
const settled = (w: SandboxDaemon) => () => targets(w).every((t) => ['published', 'failed', 'needs_review'].includes(t.status));

/**
 * A daemon (ManualClock) with a sandbox connection to `platform`; the user sets `faults`
 * through PUT /sandbox/faults and publishes now; returns once the first attempt ended.
 * X's request timeout is 1 s here so a held call ends quickly.
 */
async function run(platform: Platform, faults: SandboxFaults, steps = 120, step = 1000) {
  const adapters = createAdapters();
  adapters.set('twitter', createTwitterAdapter({ requestTimeoutMs: 1_000 }));
  const applied: AppliedFault[] = [];
  const w = await startSandboxDaemon(defer, { platforms: [platform], adapters, onFault: (f) => applied.push(f) });
  const put = await w.call('PUT', '/sandbox/faults', { faults });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const pub = await w.call('POST', '/content/publish', { caption: `Faults on ${platform}`, platforms: [platform], scheduled_for: new Date(w.clock.now()).toISOString() });
  expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);
  const start = w.clock.now();
  await advanceUntil(w.clock, () => targets(w).some((t) => t.attempts >= 1 && t.status !== 'publishing'), steps, step);
  return Object.assign(w, { applied, start });
}

/** Clears the faults through the API and lets the daemon run until the target settles. */
async function recover(w: Awaited<ReturnType<typeof run>>, step = 1000, steps = 300) {
  const cleared = await w.call('DELETE', '/sandbox/faults');
  expect(cleared.body).toEqual({ success: true, faults: {}, global: {} });
  await advanceUntil(w.clock, settled(w), steps, step);
}

const kinds = (w: Awaited<ReturnType<typeof run>>) => w.applied.map((f) => `${f.kind} ${f.method} ${f.path.replace(/\/(?:\d{6,}|sandbox_\w+)/g, '/{id}')}`);

describe('PUT, GET and DELETE /sandbox/faults', () => {
  it('stores the caller\'s faults, shows the global ones beside them, clears them, and refuses bad ones with the fields named', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    expect((await w.call('GET', '/sandbox/faults')).body).toEqual({ success: true, faults: {}, global: {} });
    const faults = { all: { latency_ms: { min: 200, max: 400 } }, twitter: { rate_limited: 0.25, unanswered: 0.5 } };
    expect((await w.call('PUT', '/sandbox/faults', { faults })).body).toEqual({ success: true, faults, global: {} });
    expect((await w.call('GET', '/sandbox/faults')).body).toEqual({ success: true, faults, global: {} });

    const bad = await w.call('PUT', '/sandbox/faults', { faults: { twitter: { server_error: 1.5 }, all: { latency_ms: { min: 500, max: 100 } } } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('server_error must be a share of calls from 0 to 1');
    expect(JSON.stringify(bad.body)).toContain('latency_ms.min must not exceed latency_ms.max');
    const unknown = await w.call('PUT', '/sandbox/faults', { faults: { myspace: { reset: 1 } } });
    expect(unknown.status).toBe(400);
    const tooMany = await w.call('PUT', '/sandbox/faults', { faults: { all: { server_error: 0.6, reset: 0.6 } } });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('must not exceed 1');
    // Refused bodies changed nothing.
    expect((await w.call('GET', '/sandbox/faults')).body).toEqual({ success: true, faults, global: {} });

    expect((await w.call('DELETE', '/sandbox/faults')).body).toEqual({ success: true, faults: {}, global: {} });
    expect((await w.call('GET', '/sandbox/faults')).body.faults).toEqual({});
  });
});

describe('made but unanswered: the post is made, its answer lost; the daemon reads it back and ends with exactly one post', () => {
  for (const [platform, create] of [
    ['twitter', 'POST /sandbox/api.x.com/2/tweets'],
    ['threads', 'POST /sandbox/graph.threads.net/v1.0/{id}/threads_publish'],
    ['facebook', 'POST /sandbox/graph.facebook.com/v25.0/{id}/feed'],
  ] as const) {
    it(platform, async () => {
      const w = await run(platform, { [platform]: { unanswered: 1 } });
      await advanceUntil(w.clock, settled(w), 300);
      expect(kinds(w)).toEqual([`unanswered ${create}`]);
      const [t] = targets(w);
      const posts = listSandboxPosts(w.db);
      expect(posts).toHaveLength(1);
      expect(t).toMatchObject({ status: 'published', post_id: posts[0]!.postId });
      // Nothing published twice on the next attempts either.
      await advanceUntil(w.clock, () => false, 30, 60_000);
      expect(listSandboxPosts(w.db)).toHaveLength(1);
    }, 60_000);
  }
});

describe('5xx', () => {
  it('threads: the container call fails with 503, nothing is made, the daemon retries with backoff and publishes once', async () => {
    const w = await run('threads', { all: { server_error: 1 } });
    const [t] = targets(w);
    expect(t).toMatchObject({ status: 'scheduled', attempts: 1, error_code: 'platform_error' });
    expect(t!.error_message).toContain('Service Unavailable');
    expect(t!.next_attempt_at! - w.start).toBeGreaterThanOrEqual(5_000);
    expect(kinds(w)).toEqual([expect.stringMatching(/^server_error [A-Z]+ \/sandbox\/graph\.threads\.net\//)]);
    expect(listSandboxPosts(w.db)).toHaveLength(0);
    await recover(w);
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 2 });
    expect(listSandboxPosts(w.db)).toHaveLength(1);
  }, 60_000);

  it('twitter: a 503 to the post itself is an unknown outcome: needs_review, never a blind second post', async () => {
    const w = await run('twitter', { twitter: { server_error: 1 } });
    expect(targets(w)[0]).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown', attempts: 1 });
    await recover(w);
    await advanceUntil(w.clock, () => false, 30, 60_000);
    expect(targets(w)[0]!.status).toBe('needs_review');
    expect(listSandboxPosts(w.db)).toHaveLength(0);
  }, 60_000);
});

describe("429 with the platform's own rate-limit headers", () => {
  it("twitter: waits until X's x-rate-limit-reset (15 minutes on the sandbox clock), then publishes once", async () => {
    const w = await run('twitter', { twitter: { rate_limited: 1 } });
    const [t] = targets(w);
    expect(t).toMatchObject({ status: 'scheduled', attempts: 1 });
    expect(t!.error_message).toContain('X rate limit reached');
    expect(t!.next_attempt_at! - w.start).toBeGreaterThanOrEqual(15 * 60_000 - 2_000);
    expect(t!.next_attempt_at! - w.start).toBeLessThanOrEqual(15 * 60_000 + 2_000);
    await recover(w, 60_000, 30);
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 2 });
    expect(listSandboxPosts(w.db)).toHaveLength(1);
  }, 60_000);

  it('facebook: Graph code 4 throttling waits an hour, then publishes once', async () => {
    const w = await run('facebook', { facebook: { rate_limited: 1 } }, 120, 60_000);
    const rows = attempts(w) as { outcome: string; error_code: string }[];
    expect(rows[0]).toMatchObject({ outcome: 'retry', error_code: 'rate_limited' });
    expect(targets(w)[0]!.error_message).toContain('(#4) Application request limit reached');
    expect(targets(w)[0]!.next_attempt_at! - w.start).toBeGreaterThanOrEqual(59 * 60_000);
    await recover(w, 60_000, 120);
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 2 });
    expect(listSandboxPosts(w.db)).toHaveLength(1);
  }, 60_000);
});

describe('connection resets', () => {
  it('threads: a reset before anything was made is retried with backoff, and publishes once', async () => {
    const w = await run('threads', { threads: { reset: 1 } });
    expect(targets(w)[0]).toMatchObject({ status: 'scheduled', attempts: 1 });
    expect(targets(w)[0]!.error_message).toContain('ECONNRESET');
    await recover(w);
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 2 });
    expect(listSandboxPosts(w.db)).toHaveLength(1);
  }, 60_000);

  it('facebook: a reset of the publishing call is an unknown outcome: needs_review, and no post is made twice', async () => {
    const w = await run('facebook', { facebook: { reset: 1 } });
    expect(targets(w)[0]).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(targets(w)[0]!.error_message).toContain('ECONNRESET');
    expect(listSandboxPosts(w.db)).toHaveLength(0);
  }, 60_000);
});

describe('timeouts', () => {
  it('twitter: a post that never answers ends at the request timeout as an unknown outcome (needs_review), nothing made', async () => {
    const w = await run('twitter', { twitter: { timeout: 1 } });
    // The post is held; the read-back the adapter tries next is held too (every call times out).
    expect(kinds(w)[0]).toBe('timeout POST /sandbox/api.x.com/2/tweets');
    expect(kinds(w).every((k) => k.startsWith('timeout '))).toBe(true);
    expect(targets(w)[0]).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(targets(w)[0]!.error_message).toContain("Timeout awaiting 'request' for 1000ms");
    expect(listSandboxPosts(w.db)).toHaveLength(0);
  }, 60_000);
});

describe('latency', () => {
  it('every call of the user waits in the range (real time), and the post goes out once', async () => {
    const began = performance.now();
    const w = await run('twitter', { all: { latency_ms: { min: 150, max: 150 } } });
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 1 });
    const waits = w.applied.filter((f) => f.kind === 'latency');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.every((f) => f.latencyMs === 150 && f.platform === 'twitter')).toBe(true);
    expect(performance.now() - began).toBeGreaterThanOrEqual(150 * waits.length);
  }, 60_000);
});

describe('faults for everyone (environment, config file)', () => {
  it('apply to a user who set none; a user\'s own fields override them', async () => {
    const applied: AppliedFault[] = [];
    const w = await startSandboxDaemon(defer, { platforms: ['threads'], sandboxFaults: { all: { server_error: 1 } }, onFault: (f) => applied.push(f) });
    await w.call('POST', '/content/publish', { caption: 'Global faults', platforms: ['threads'], scheduled_for: new Date(w.clock.now()).toISOString() });
    await advanceUntil(w.clock, () => targets(w)[0]!.attempts >= 1 && targets(w)[0]!.status !== 'publishing', 60);
    expect(applied.map((f) => f.kind)).toEqual(['server_error']);
    // The user's own share (0) overrides the global one for their calls.
    await w.call('PUT', '/sandbox/faults', { faults: { threads: { server_error: 0 } } });
    await advanceUntil(w.clock, settled(w), 300);
    expect(targets(w)[0]).toMatchObject({ status: 'published', attempts: 2 });
  }, 60_000);
});
