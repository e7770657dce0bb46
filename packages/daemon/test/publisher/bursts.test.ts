import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../../src/util/clock';
import { seedUser, T0, useWorlds, type World } from '../scheduler/harness';

const world = useWorlds();

/** Moves the clock without waiting for attempts in flight (the adapters sleep on it). */
async function step(w: World, ms: number): Promise<void> {
  await w.clock.advance(ms);
  await flushMicrotasks(12);
}

const count = (w: World, status: string) => w.db.prepare('SELECT count(*) FROM targets WHERE status = ?').pluck().get(status) as number;

function users(w: World, n: number, from = 2): string[] {
  const ids: string[] = [];
  for (let i = from; i < from + n; i++) {
    const id = `user-${i}`;
    seedUser(w.db, T0, id);
    ids.push(id);
  }
  return ids;
}

describe('bursts across connections', () => {
  it('runs a burst across many connections in parallel: 300 targets due at once are all out after one platform call', async () => {
    const w = world({ latencyMs: [300, 300] });
    const ids: string[] = [];
    for (const u of users(w, 50)) {
      for (const platform of ['twitter', 'threads', 'facebook'] as Platform[]) {
        for (let n = 0; n < 2; n++) ids.push(w.add({ due: T0 + 1_000, platform, userId: u }));
      }
    }
    w.publisher.start();
    await w.scheduler.start();
    await step(w, 1_000);
    expect(count(w, 'publishing')).toBe(300);
    await step(w, 299);
    expect(count(w, 'published')).toBe(0);
    await step(w, 1);
    expect(count(w, 'published')).toBe(300);
    expect(new Set(ids.map((id) => w.row(id).published_at))).toEqual(new Set([T0 + 1_300]));
    expect(w.ledger.entries()).toHaveLength(300);
  });

  it('claims a burst in one statement and writes the ends of one moment together (store/target-claims.ts, attempt-finish.ts)', async () => {
    const w = world();
    const claimCalls: number[] = [];
    const finishCalls: number[] = [];
    const { claimMany, finishMany } = w.queue;
    w.queue.claimMany = (ids, ...rest) => {
      claimCalls.push(ids.length);
      return claimMany(ids, ...rest);
    };
    w.queue.finishMany = (requests) => {
      finishCalls.push(requests.length);
      return finishMany(requests);
    };
    // Platform calls that all answer at the same moment (the ManualClock wakes sleepers one
    // turn at a time, so the answers are released together by hand).
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const platforms: Platform[] = ['twitter', 'threads', 'facebook'];
    for (const platform of platforms) {
      const real = w.adapter(platform);
      (w.adapters as Map<Platform, PlatformAdapter>).set(platform, {
        platform,
        validate: () => real.validate(),
        reconcile: (ctx) => real.reconcile(ctx),
        publish: async (ctx) => {
          await answered;
          return { postId: `post-${ctx.target.id}`, postUrl: null, publishedAt: w.clock.now() };
        },
      });
    }
    for (const u of users(w, 20)) for (const platform of platforms) w.add({ due: T0 + 1_000, platform, userId: u });
    w.publisher.start();
    await w.scheduler.start();
    await step(w, 1_000);
    expect(claimCalls).toEqual([60]);
    expect(count(w, 'publishing')).toBe(60);
    answer();
    await flushMicrotasks(12);
    expect(finishCalls).toEqual([60]);
    expect(count(w, 'published')).toBe(60);
    expect(w.db.prepare("SELECT count(*) FROM events WHERE type = 'target.published'").pluck().get()).toBe(60);
    expect(w.db.prepare('SELECT count(*) FROM attempts WHERE ended_at IS NULL').pluck().get()).toBe(0);
  });

  it('keeps to the caps per connection, per platform and in all', async () => {
    const w = world({ latencyMs: [300, 300], publisher: { connectionConcurrency: 2, concurrency: { twitter: 3 }, globalConcurrency: 7 } });
    const [a, b, c] = users(w, 3);
    for (const u of [a, b, c] as string[]) {
      for (let n = 0; n < 4; n++) w.add({ due: T0, platform: 'twitter', userId: u });
      for (let n = 0; n < 4; n++) w.add({ due: T0, platform: 'threads', userId: u });
    }
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks(12);
    const inFlight = () =>
      w.db.prepare("SELECT user_id, platform, count(*) AS n FROM targets WHERE status = 'publishing' GROUP BY user_id, platform ORDER BY user_id, platform").all() as {
        user_id: string;
        platform: string;
        n: number;
      }[];
    const first = inFlight();
    // Admitted as they arrived (user 2's, then 3's, then 4's): twitter stops at its cap of 3,
    // the global cap of 7 stops the rest, and no connection has more than 2.
    expect(first).toEqual([
      { user_id: 'user-2', platform: 'threads', n: 2 },
      { user_id: 'user-2', platform: 'twitter', n: 2 },
      { user_id: 'user-3', platform: 'threads', n: 2 },
      { user_id: 'user-3', platform: 'twitter', n: 1 },
    ]);
    await step(w, 300);
    expect(count(w, 'published')).toBe(7);
    expect(count(w, 'publishing')).toBe(7);
    for (let i = 0; i < 4; i++) await step(w, 300);
    expect(count(w, 'published')).toBe(24);
    expect(w.ledger.entries()).toHaveLength(24);
  });

  it('keeps due order within a connection', async () => {
    const w = world({ latencyMs: [100, 100], publisher: { connectionConcurrency: 1 } });
    const ids = [w.add({ due: T0 + 3_000 }), w.add({ due: T0 + 1_000 }), w.add({ due: T0 + 2_000 }), w.add({ due: T0 + 1_000 })];
    w.publisher.start();
    await w.scheduler.start();
    for (let i = 0; i < 40; i++) await step(w, 100);
    expect(w.adapter('twitter').calls.map((c) => c.targetId)).toEqual([ids[1], ids[3], ids[2], ids[0]]);
  });

  it("does not let one user's backlog of 1,000 delay another user's post beyond one slot", async () => {
    const w = world({ latencyMs: [300, 300], publisher: { concurrency: 2 } });
    const [b] = users(w, 1);
    for (let n = 0; n < 1_000; n++) w.add({ due: T0 });
    const other = w.add({ due: T0, userId: b as string });
    w.publisher.start();
    await w.scheduler.start();
    await flushMicrotasks(12);
    // The backlog's user holds both slots; the other user's post is next.
    expect(count(w, 'publishing')).toBe(2);
    await step(w, 300);
    expect(w.row(other)).toMatchObject({ status: 'publishing', attempt_started_at: T0 + 300 });
    await step(w, 300);
    expect(w.row(other)).toMatchObject({ status: 'published', published_at: T0 + 600 });
    expect(count(w, 'published')).toBe(4);
  });

  it("pauses only the connection that got a 429, until the reset the platform gave; the user's other connections and other users go on", async () => {
    // One at a time per connection, so the second tweet is still waiting when the first gets the 429.
    const w = world({ publisher: { connectionConcurrency: 1 } });
    const [b] = users(w, 1);
    const reset = T0 + 15 * 60_000;
    const aTweets = [w.add({ due: T0 }), w.add({ due: T0 }), w.add({ due: T0 + 60_000 })];
    const aThread = w.add({ due: T0, platform: 'threads' });
    const bTweets = [w.add({ due: T0, userId: b as string }), w.add({ due: T0 + 60_000, userId: b as string })];
    w.adapter('twitter').inject({ kind: 'rate_limited', until: reset, platformCode: '429' }, { targetId: aTweets[0] as string });
    await w.start();
    await w.advance(60_000);
    expect(aTweets.map((id) => [w.row(id).status, w.row(id).next_attempt_at])).toEqual([
      ['scheduled', reset],
      ['scheduled', reset],
      ['scheduled', reset],
    ]);
    expect(w.row(aThread).status).toBe('published');
    expect(bTweets.map((id) => w.row(id).status)).toEqual(['published', 'published']);
    expect(w.queue.pauses.forConnection('user-1', 'twitter', w.clock.now())).toMatchObject({ appliesTo: 'connection', until: reset, platformCode: '429' });
    expect(w.queue.pauses.forConnection(b as string, 'twitter', w.clock.now())).toBeNull();

    // It resumes at the reset, not before.
    await w.advance(reset - w.clock.now() - 1);
    expect(aTweets.map((id) => w.row(id).status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    await w.advance(1);
    expect(aTweets.map((id) => [w.row(id).status, w.row(id).attempt_started_at])).toEqual([
      ['published', reset],
      ['published', reset],
      ['published', reset],
    ]);
    expect(w.queue.pauses.forConnection('user-1', 'twitter', w.clock.now())).toBeNull();
    expect(w.ledger.entries().filter((e) => aTweets.includes(e.targetId))).toHaveLength(3);
  });

  it("pauses every connection of a platform on an app-wide limit, and nothing else", async () => {
    const w = world();
    const [b] = users(w, 1);
    const reset = T0 + 3_600_000;
    const aTube = w.add({ due: T0, platform: 'youtube' });
    const bTube = w.add({ due: T0 + 1_000, platform: 'youtube', userId: b as string });
    const bTweet = w.add({ due: T0 + 1_000, userId: b as string });
    w.adapter('youtube').inject({ kind: 'rate_limited', until: reset, platformCode: 'quotaExceeded', appliesTo: 'app' });
    await w.start();
    await w.advance(1_000);
    expect([w.row(aTube).next_attempt_at, w.row(bTube).next_attempt_at]).toEqual([reset, reset]);
    expect(w.row(bTube)).toMatchObject({ status: 'scheduled', attempts: 0 });
    expect(w.row(bTweet).status).toBe('published');
    expect(w.queue.pauses.forConnection(b as string, 'youtube', w.clock.now())).toMatchObject({ appliesTo: 'app', userId: null, until: reset });
    await w.advance(reset - w.clock.now());
    expect([w.row(aTube).status, w.row(bTube).status]).toEqual(['published', 'published']);
  });

  it('keeps a pause across a restart: a target that falls due after it waits for the reset', async () => {
    const first = world();
    const reset = T0 + 15 * 60_000;
    const held = first.add({ due: T0 });
    first.adapter('twitter').inject({ kind: 'rate_limited', until: reset });
    await first.start();
    await first.stop();

    const w = world({ db: first.db, clock: first.clock });
    const later = w.add({ due: T0 + 60_000 });
    const [b] = users(w, 1);
    const other = w.add({ due: T0 + 60_000, userId: b as string });
    await w.start();
    await w.advance(60_000);
    expect(w.row(later)).toMatchObject({ status: 'scheduled', next_attempt_at: reset, attempts: 0 });
    expect(w.row(other).status).toBe('published');
    await w.advance(reset - w.clock.now());
    expect([w.row(held).status, w.row(later).status]).toEqual(['published', 'published']);
    expect(w.adapter('twitter').calls.filter((c) => c.targetId === later)).toHaveLength(1);
  });
});
