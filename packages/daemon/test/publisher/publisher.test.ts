import type { PlatformAdapter } from '../../src/platforms/adapter';
import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../../src/util/clock';
import { T0, useWorlds } from '../scheduler/harness';

const world = useWorlds();

describe('Publisher', () => {
  it('publishes a due target once and stores its post id, URL and time', async () => {
    const w = world();
    const id = w.add({ due: T0 + 1_000, caption: 'hello' });
    await w.start();
    await w.advance(1_000);
    expect(w.row(id)).toMatchObject({
      status: 'published',
      post_id: `test_${id}_1`,
      post_url: `https://test.invalid/twitter/test_${id}_1`,
      published_at: T0 + 1_000,
      attempts: 1,
      attempt_started_at: T0 + 1_000,
      lease_owner: null,
      lease_until: null,
      error_code: null,
    });
    expect(w.attempts(id)).toEqual([
      { number: 1, outcome: 'published', error_code: null, error_message: null, platform_code: null, started_at: T0 + 1_000, ended_at: T0 + 1_000 },
    ]);
    expect(w.ledger.entries().map((e) => [e.targetId, e.caption])).toEqual([[id, 'hello']]);
    await w.advance(3_600_000);
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('commits each checkpoint to the targets row before the adapter moves on', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'hang_after_post' });
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks();
    expect(w.row(id).status).toBe('publishing');
    expect(JSON.parse(w.row(id).checkpoint)).toEqual({ step: 'posted', post_id: `test_${id}_1` });
  });

  it('hands the job caption, or the platform caption, and resolved media to the adapter', async () => {
    const w = world();
    const id = w.add({ due: T0, platform: 'instagram', caption: 'base', mediaUrls: ['https://cdn.example/a.jpg'] });
    w.db.prepare('UPDATE jobs SET platform_captions = ? WHERE id = ?').run(JSON.stringify({ instagram: 'insta caption' }), `job_${id}`);
    await w.start();
    expect(w.ledger.entries()).toMatchObject([{ targetId: id, caption: 'insta caption', mediaCount: 1, platform: 'instagram' }]);
  });

  it('retries a retryable error with capped exponential backoff, then fails with attempts_exhausted', async () => {
    const w = world({ publisher: { backoff: { baseMs: 30_000, capMs: 120_000 }, maxAttempts: 5 } });
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'retryable', platformCode: '503' }, { times: 10 });
    await w.start();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = w.row(id);
      expect(r.status).toBe('scheduled');
      expect(r).toMatchObject({ error_code: 'platform_error', platform_code: '503' });
      const wait = (r.next_attempt_at as number) - w.clock.now();
      waits.push(wait);
      await w.advance(wait - 1);
      expect(w.row(id).attempts).toBe(i + 1);
      await w.advance(1);
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 120_000]);
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'attempts_exhausted', attempts: 5, platform_code: '503' });
    expect(w.row(id).error_message).toMatch(/^gave up after 5 attempts: /);
    expect(w.attempts(id).map((a) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'retry', 'failed']);
    expect(w.ledger.entries()).toHaveLength(0);
  });

  it('keeps backoff jitter in the upper half of each step', async () => {
    const w = world({ publisher: { random: () => 0 } });
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'retryable' });
    await w.start();
    expect(w.row(id).next_attempt_at).toBe(T0 + 15_000);
    await w.advance(15_000);
    expect(w.row(id).status).toBe('published');
  });

  it('waits at least what a retryable error asks for', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'retryable', after: 600_000 });
    await w.start();
    expect(w.row(id).next_attempt_at).toBe(T0 + 600_000);
  });

  it('pauses only the rate-limited platform until its reset, then publishes what waited', async () => {
    const w = world();
    const tw1 = w.add({ due: T0, platform: 'twitter' });
    const tw2 = w.add({ due: T0 + 60_000, platform: 'twitter' });
    const ig = w.add({ due: T0 + 60_000, platform: 'instagram' });
    w.adapter('twitter').inject({ kind: 'rate_limited', until: T0 + 900_000, platformCode: '429' });
    await w.start();
    expect(w.row(tw1)).toMatchObject({ status: 'scheduled', next_attempt_at: T0 + 900_000, platform_code: '429' });
    await w.advance(60_000);
    expect(w.row(ig).status).toBe('published');
    expect(w.row(tw2)).toMatchObject({ status: 'scheduled', next_attempt_at: T0 + 900_000, attempts: 0 });
    expect(w.adapter('twitter').calls).toHaveLength(1);
    await w.advance(900_000 - 60_000);
    expect([w.row(tw1).status, w.row(tw2).status]).toEqual(['published', 'published']);
    expect(w.attempts(tw1).map((a) => [a.outcome, a.error_code])).toEqual([['retry', 'rate_limited'], ['published', null]]);
  });

  it('does not count rate limits against the retry budget', async () => {
    const w = world({ publisher: { maxAttempts: 2 } });
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'rate_limited', until: T0 + 1_000 });
    w.adapter('twitter').inject({ kind: 'rate_limited', until: T0 + 2_000 });
    w.adapter('twitter').inject({ kind: 'retryable' });
    await w.start();
    await w.advance(2_000);
    await w.advance(30_000);
    expect(w.row(id)).toMatchObject({ status: 'published', attempts: 4 });
  });

  it('fails on a permanent error and keeps the platform code and message', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'permanent', platformCode: '187', message: 'Status is a duplicate.' });
    await w.start();
    await w.advance(3_600_000);
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'platform_error', platform_code: '187', error_message: 'Status is a duplicate.' });
    expect(w.adapter('twitter').calls).toHaveLength(1);
  });

  it('puts a target whose publish call timed out in needs_review and never retries it', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'outcome_unknown', posted: true });
    await w.start();
    await w.advance(3_600_000);
    expect(w.row(id)).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(w.adapter('twitter').calls).toHaveLength(1);
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('puts a target in needs_review when the adapter throws something unexpected after posting', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'throw_after_post' });
    await w.start();
    await w.advance(3_600_000);
    expect(w.row(id)).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(w.row(id).error_message).toContain('bug after posting');
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('fails with auth_expired, marks the connection expired, and fails the next target without calling the platform', async () => {
    const w = world();
    const a = w.add({ due: T0 });
    const b = w.add({ due: T0 + 1_000 });
    w.adapter('twitter').inject({ kind: 'auth_expired' });
    await w.start();
    expect(w.row(a)).toMatchObject({ status: 'failed', error_code: 'auth_expired' });
    await w.advance(1_000);
    expect(w.row(b)).toMatchObject({ status: 'failed', error_code: 'auth_expired' });
    expect(w.adapter('twitter').calls).toHaveLength(1);
    expect(w.db.prepare("SELECT status FROM connections WHERE platform = 'twitter'").pluck().get()).toBe('expired');
  });

  it('fails a target whose user has no connection with platform_not_connected', async () => {
    const w = world();
    w.db.prepare("DELETE FROM connections WHERE platform = 'tiktok'").run();
    const id = w.add({ due: T0, platform: 'tiktok' });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'platform_not_connected' });
    expect(w.adapter('tiktok').calls).toHaveLength(0);
  });

  it('retries when media cannot be resolved yet, with media_unavailable', async () => {
    let fail = true;
    const w = world({
      publisher: {
        media: {
          resolve: async (_u, urls) => {
            if (fail) throw new Error('connection reset fetching media');
            return urls.map((url) => ({ url, kind: 'image' as const, mimeType: 'image/png', size: 1, publicUrl: url, path: '/x', sha256: null }));
          },
        },
      },
    });
    const id = w.add({ due: T0, mediaUrls: ['https://cdn.example/a.png'] });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'scheduled', error_code: 'media_unavailable', next_attempt_at: T0 + 30_000 });
    fail = false;
    await w.advance(30_000);
    expect(w.row(id).status).toBe('published');
  });

  it('runs at most the concurrency limit per platform, in due order, without holding up other platforms', async () => {
    const w = world({ publisher: { concurrency: 2 } });
    for (const p of ['twitter', 'twitter', 'twitter', 'twitter', 'twitter']) w.add({ due: T0, platform: p as 'twitter' });
    const ig = w.add({ due: T0, platform: 'instagram' });
    for (const a of w.adapters.values()) a.inject({ kind: 'hang_after_post' }, { times: 100 });
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks();
    expect(w.adapter('twitter').calls).toHaveLength(2);
    expect(w.row(ig).status).toBe('publishing');
    expect(w.db.prepare("SELECT count(*) FROM targets WHERE status = 'publishing'").pluck().get()).toBe(3);
  });

  it('never fires a target held for approval, and publishes at once when approved after its time', async () => {
    const w = world();
    const id = w.add({ due: T0 + 1_000, status: 'pending_approval' });
    await w.start();
    await w.advance(3_600_000);
    expect(w.row(id).status).toBe('pending_approval');
    expect(w.ledger.entries()).toHaveLength(0);
    w.db.prepare("UPDATE targets SET status = 'scheduled', due_at = CASE WHEN due_at > ? THEN due_at ELSE ? END WHERE id = ?").run(w.clock.now(), w.clock.now(), id);
    w.scheduler.targetsChanged([id]);
    await w.settle();
    expect(w.row(id)).toMatchObject({ status: 'published', attempt_started_at: T0 + 3_600_000 });
  });

  it('does not publish a target cancelled while it waited for a slot', async () => {
    const w = world({ publisher: { concurrency: 1 } });
    const first = w.add({ due: T0 });
    const second = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'hang_after_post' }, { targetId: first });
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks();
    w.db.prepare("UPDATE targets SET status = 'cancelled' WHERE id = ?").run(second);
    await w.publisher.stop(0);
    expect(w.row(second).status).toBe('cancelled');
    expect(w.ledger.entries().map((e) => e.targetId)).toEqual([first]);
  });

  it('holds back a target re-timed later while it waited for a slot, and publishes it at its new time', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const calls: string[] = [];
    const adapter: PlatformAdapter = {
      platform: 'twitter',
      validate: () => [],
      publish: async (ctx) => {
        calls.push(ctx.target.id);
        if (calls.length === 1) await held;
        return { postId: `p_${ctx.target.id}`, postUrl: null };
      },
      reconcile: async () => ({ state: 'unknown', reason: 'not used' }),
    };
    const w = world({ publisher: { concurrency: 1, adapters: new Map([['twitter', adapter]]) } });
    const first = w.add({ due: T0 });
    const second = w.add({ due: T0 });
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks();
    expect(calls).toEqual([first]);
    w.db.prepare('UPDATE targets SET due_at = ? WHERE id = ?').run(T0 + 600_000, second);
    w.scheduler.targetsChanged([second]);
    release();
    await w.settle();
    expect(w.row(first).status).toBe('published');
    expect(w.row(second)).toMatchObject({ status: 'scheduled', attempts: 0 });
    expect(calls).toEqual([first]);
    await w.advance(600_000);
    expect(w.row(second)).toMatchObject({ status: 'published', attempt_started_at: T0 + 600_000 });
    expect(calls).toEqual([first, second]);
  });

  it('claims a target once even when it is dispatched twice', async () => {
    const w = world();
    const id = w.add({ due: T0 });
    await w.start();
    w.publisher.dispatch(id);
    w.publisher.dispatch(id);
    await w.settle();
    expect(w.ledger.entries()).toHaveLength(1);
    expect(w.row(id).attempts).toBe(1);
  });

  it('fires overdue targets at start in due order, paced by the platform limit', async () => {
    const w = world({ publisher: { concurrency: 1 } });
    const ids = [w.add({ due: T0 - 1_000 }), w.add({ due: T0 - 3_600_000 }), w.add({ due: T0 - 60_000 })];
    await w.start();
    expect(w.adapter('twitter').calls.map((c) => c.targetId)).toEqual([ids[1], ids[2], ids[0]]);
    expect(ids.map((id) => w.row(id).status)).toEqual(['published', 'published', 'published']);
  });
});
