import { describe, expect, it } from 'vitest';
import type { Post } from '@socialpub/core';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();

type Row = { platform: string; status: string; attempts: number };
/** The job's targets as stored (advanceUntil's predicates are synchronous). */
const rows = (w: Awaited<ReturnType<typeof startSandboxDaemon>>, jobId: string) =>
  w.db.prepare('SELECT platform, status, attempts FROM targets WHERE job_id = ? ORDER BY platform').all(jobId) as Row[];

/** A scheduled target's view in GET /content/scheduled?job_id=. */
async function post(w: Awaited<ReturnType<typeof startSandboxDaemon>>, jobId: string): Promise<Post> {
  const r = await w.call('GET', `/content/scheduled?job_id=${jobId}`);
  expect(r.status).toBe(200);
  return (r.body as { post: Post }).post;
}

describe('a held target shows its next attempt and why', () => {
  it("a platform's 429 holds the target: next_attempt_at is in the future, with the rate limit as the reason, on this post and on the next one for the platform", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter', 'bluesky'] });
    expect((await w.call('PUT', '/sandbox/faults', { faults: { twitter: { rate_limited: 1 } } })).status).toBe(200);
    const now = new Date(w.clock.now()).toISOString();
    const pub = await w.call('POST', '/content/publish', { caption: 'Held by a rate limit', platforms: ['twitter', 'bluesky'], scheduled_for: now });
    expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);
    const jobId = (pub.body as { job_id: string }).job_id;
    await advanceUntil(w.clock, () => rows(w, jobId).some((t) => t.platform === 'twitter' && t.attempts >= 1 && t.status === 'scheduled'), 60, 1_000);

    const held = await post(w, jobId);
    const x = held.targets.find((t) => t.platform === 'twitter')!;
    expect(x.status).toBe('scheduled');
    expect(Date.parse(x.next_attempt_at!)).toBeGreaterThan(w.clock.now());
    // X's sandbox answers a 429 whose reset is 15 minutes away.
    expect(Date.parse(x.next_attempt_at!) - w.clock.now()).toBeGreaterThan(10 * 60_000);
    expect(x.hold).toEqual({ reason: 'rate_limit', message: expect.stringContaining('X rate limit reached'), platform_code: expect.any(String), applies_to: 'connection' });
    // The other platform is not held.
    const bluesky = held.targets.find((t) => t.platform === 'bluesky')!;
    expect(bluesky).toMatchObject({ next_attempt_at: null, hold: null });

    // A post due now on the paused connection is held by the same pause, before any attempt of its own.
    const later = await w.call('POST', '/content/publish', { caption: 'Due during the pause', platforms: ['twitter'], scheduled_for: new Date(w.clock.now() + 60_000).toISOString() });
    const laterId = (later.body as { job_id: string }).job_id;
    await w.clock.advance(120_000);
    const second = (await post(w, laterId)).targets[0]!;
    expect(second).toMatchObject({ status: 'scheduled', attempts: 0, next_attempt_at: x.next_attempt_at, hold: { reason: 'rate_limit', applies_to: 'connection' } });
    expect(Date.parse(second.scheduled_for)).toBeLessThan(w.clock.now());

    // The list shows the same.
    const list = await w.call('GET', '/content/scheduled?status=scheduled');
    const listed = (list.body as { posts: Post[] }).posts.find((p) => p.job_id === laterId)!;
    expect(listed.targets[0]!.next_attempt_at).toBe(x.next_attempt_at);

    // Once the pause is over and the faults cleared, it goes out: nothing holds it any more.
    await w.call('DELETE', '/sandbox/faults');
    await advanceUntil(w.clock, () => rows(w, laterId)[0]!.status === 'published', 40, 60_000);
    expect((await post(w, laterId)).targets[0]).toMatchObject({ next_attempt_at: null, hold: null });
  }, 60_000);

  it('a retry after a failed attempt shows its backoff as the reason', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['threads'] });
    expect((await w.call('PUT', '/sandbox/faults', { faults: { threads: { reset: 1 } } })).status).toBe(200);
    const pub = await w.call('POST', '/content/publish', { caption: 'Held by a retry', platforms: ['threads'], scheduled_for: new Date(w.clock.now()).toISOString() });
    const jobId = (pub.body as { job_id: string }).job_id;
    await advanceUntil(w.clock, () => rows(w, jobId).some((t) => t.attempts >= 1 && t.status === 'scheduled'), 60, 200);
    const t = (await post(w, jobId)).targets[0]!;
    expect(Date.parse(t.next_attempt_at!)).toBeGreaterThan(w.clock.now());
    expect(t.hold).toEqual({ reason: 'retry', message: expect.stringContaining('ECONNRESET'), platform_code: null, applies_to: null });
  }, 60_000);
});
