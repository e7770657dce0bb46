import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COLLECTION_AGES_MS } from '@socialpub/core';
import { openTestDatabase } from '../support/store-dialects';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 25, 9, 0, 0);

/** A store with one user and jobs whose targets are published at given times (on SQLite, or on PostgreSQL in that project). */
function setup() {
  const clock = new ManualClock(T0);
  const db = openTestDatabase(':memory:');
  const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
  const { user } = store.users.ensure('a@example.com', clock.now());
  const publish = db.prepare("UPDATE targets SET status = 'published', post_id = ?, published_at = ? WHERE id = ?");
  let n = 0;
  const job = (targets: Array<{ platform: 'twitter' | 'mastodon'; publishedAt: number | null }>) => {
    const id = `job_m${n++}`;
    store.jobs.create(
      { id, userId: user.id, caption: 'c', platforms: [...new Set(targets.map((t) => t.platform))], platformCaptions: {}, platformTypes: {}, mediaUrls: [], publishNow: true, scheduledFor: null, typeSchedule: {}, requireApproval: false, sortAt: 0, createdAt: 0 },
      targets.map((t, i) => ({ id: `${id}_${i}`, platform: t.platform, type: t.platform === 'twitter' ? ('tweet' as const) : ('post' as const), scheduleKey: null, dueAt: 0, status: 'scheduled' as const })),
    );
    targets.forEach((t, i) => {
      if (t.publishedAt !== null) publish.run(`p_${id}_${i}`, t.publishedAt, `${id}_${i}`);
    });
    return id;
  };
  return { clock, db, store, user, job };
}

describe('the post_metrics and metrics_collection repository', () => {
  it("enrols published targets at their first age, lists them once due, and records readings with the schedule's next age and their event", () => {
    const { store, user, job, db } = setup();
    const a = job([{ platform: 'twitter', publishedAt: T0 }, { platform: 'mastodon', publishedAt: null }]);
    expect(store.postMetrics.enrolPublished(COLLECTION_AGES_MS[0], T0 - 1, 100)).toBe(0);
    expect(store.postMetrics.enrolPublished(COLLECTION_AGES_MS[0], T0, 100)).toBe(1);
    expect(store.postMetrics.enrolPublished(COLLECTION_AGES_MS[0], T0, 100)).toBe(0);
    expect(store.postMetrics.due(T0 + HOUR - 1, T0 + HOUR - 1, 10)).toEqual([]);
    const [due] = store.postMetrics.due(T0 + HOUR, T0 + HOUR, 10);
    expect(due).toEqual({ targetId: `${a}_0`, jobId: a, userId: user.id, platform: 'twitter', type: 'tweet', connectionId: null, accountKey: 'twitter', postId: `p_${a}_0`, publishedAt: T0, stage: 0 });

    store.postMetrics.recordReading(due!, { collectedAt: T0 + HOUR, metrics: { likes: 3, impressions: 90 }, platformMetrics: { like_count: 3, impression_count: 90 } }, 1, T0 + 24 * HOUR);
    expect(store.postMetrics.due(T0 + 2 * HOUR, T0 + 2 * HOUR, 10)).toEqual([]);
    expect(store.postMetrics.due(T0 + 24 * HOUR, T0 + 24 * HOUR, 10).map((t) => [t.targetId, t.stage])).toEqual([[`${a}_0`, 1]]);
    // A post of the same user and platform to publish by then (or in flight) holds the reading back; another platform's does not.
    const later = job([{ platform: 'twitter', publishedAt: null }, { platform: 'mastodon', publishedAt: null }]);
    db.prepare('UPDATE targets SET due_at = ? WHERE job_id = ?').run(T0 + 24 * HOUR + 60_000, later);
    expect(store.postMetrics.due(T0 + 24 * HOUR, T0 + 24 * HOUR + 120_000, 10)).toEqual([]);
    expect(store.postMetrics.due(T0 + 24 * HOUR, T0 + 24 * HOUR + 30_000, 10)).toHaveLength(1);
    db.prepare("UPDATE targets SET status = 'publishing' WHERE id = ?").run(`${later}_0`);
    expect(store.postMetrics.due(T0 + 24 * HOUR, T0 + 24 * HOUR, 10)).toEqual([]);
    db.prepare("UPDATE targets SET status = 'cancelled' WHERE job_id = ?").run(later);
    store.postMetrics.recordReading(due!, { collectedAt: T0 + 24 * HOUR, metrics: { likes: 9, impressions: 400 }, platformMetrics: { like_count: 9, impression_count: 400 } }, 2, T0 + 72 * HOUR);
    expect(store.postMetrics.historyOfJob(a).get(`${a}_0`)).toEqual([
      { collectedAt: T0 + HOUR, metrics: { likes: 3, impressions: 90 }, platformMetrics: { like_count: 3, impression_count: 90 } },
      { collectedAt: T0 + 24 * HOUR, metrics: { likes: 9, impressions: 400 }, platformMetrics: { like_count: 9, impression_count: 400 } },
    ]);
    expect(store.postMetrics.statesOfJob(a).get(`${a}_0`)).toEqual({ targetId: `${a}_0`, stage: 2, nextAt: T0 + 72 * HOUR, problem: null });
    const events = db.prepare("SELECT type, job_id, subject, data FROM events WHERE type = 'post.metrics_updated' ORDER BY id").all() as Array<{ type: string; job_id: string; subject: string; data: string }>;
    expect(events.map((e) => [e.job_id, e.subject, JSON.parse(e.data).metrics.likes])).toEqual([
      [a, `${a}_0`, 3],
      [a, `${a}_0`, 9],
    ]);
  });

  it('notes a problem, postpones without losing the stage, reads the latest reading per target in a window, and prunes by age', () => {
    const { store, job } = setup();
    const a = job([{ platform: 'twitter', publishedAt: T0 }]);
    const b = job([{ platform: 'mastodon', publishedAt: T0 + 2 * HOUR }]);
    store.postMetrics.enrolPublished(HOUR, T0 + 10 * HOUR, 100);
    const [ta] = store.postMetrics.publishedOfJob(a);
    const [tb] = store.postMetrics.publishedOfJob(b);
    store.postMetrics.noteProblem(ta!, { code: 'missing_scope', message: 'reconnect', at: T0 + HOUR }, 0, T0 + 2 * HOUR);
    expect(store.postMetrics.statesOfJob(a).get(ta!.targetId)?.problem).toEqual({ code: 'missing_scope', message: 'reconnect', at: T0 + HOUR });
    store.postMetrics.postpone(ta!.targetId, T0 + 5 * HOUR);
    expect(store.postMetrics.statesOfJob(a).get(ta!.targetId)).toMatchObject({ stage: 0, nextAt: T0 + 5 * HOUR });

    store.postMetrics.recordReading(ta!, { collectedAt: T0 + HOUR, metrics: { likes: 1 }, platformMetrics: {} }, 1, null);
    store.postMetrics.recordReading(ta!, { collectedAt: T0 + HOUR, metrics: { likes: 2 }, platformMetrics: {} }, 1, null);
    store.postMetrics.recordReading(tb!, { collectedAt: T0 + 3 * HOUR, metrics: { likes: 5 }, platformMetrics: {} }, 1, null);
    // The latest by insertion even at the same collected_at.
    expect(store.postMetrics.latestInWindow(ta!.userId, T0, T0 + 10 * HOUR, null).map((r) => [r.jobId, r.metrics.likes])).toEqual([
      [a, 2],
      [b, 5],
    ]);
    expect(store.postMetrics.latestInWindow(ta!.userId, T0, T0 + 10 * HOUR, 'mastodon').map((r) => r.jobId)).toEqual([b]);
    expect(store.postMetrics.latestInWindow(ta!.userId, T0 + HOUR, T0 + 10 * HOUR, null).map((r) => r.jobId)).toEqual([b]);
    // Pruning by age never takes a target's latest reading: a's older one goes, its latest (as old) stays.
    expect(store.postMetrics.prune(T0 + 2 * HOUR)).toBe(1);
    expect(store.postMetrics.historyOfJob(a).get(ta!.targetId)?.map((r) => r.metrics.likes)).toEqual([2]);
    expect(store.postMetrics.prune(T0 + 400 * 24 * HOUR)).toBe(0);
    expect(store.postMetrics.latestInWindow(ta!.userId, T0, T0 + 10 * HOUR, null).map((r) => [r.jobId, r.metrics.likes])).toEqual([
      [a, 2],
      [b, 5],
    ]);
    expect(store.postMetrics.publishDueBy(ta!.userId, 'twitter', T0 + 10 * HOUR)).toBe(false);
  });

  it("keeps a network's 429 to the readings of a connection, later only, until it is over", () => {
    const { store } = setup();
    expect(store.postMetrics.readingsPaused('analytics:c1', T0)).toBeNull();
    store.postMetrics.pauseReadings('analytics:c1', T0 + 15 * 60_000, 'X: Too Many Requests');
    store.postMetrics.pauseReadings('analytics:c1', T0 + 5 * 60_000, 'sooner');
    expect(store.postMetrics.readingsPaused('analytics:c1', T0)).toEqual({ until: T0 + 15 * 60_000, reason: 'X: Too Many Requests' });
    expect(store.postMetrics.readingsPaused('analytics:c2', T0)).toBeNull();
    store.postMetrics.pauseReadings('analytics:c1', T0 + HOUR, 'later');
    expect(store.postMetrics.readingsPaused('analytics:c1', T0 + 30 * 60_000)).toEqual({ until: T0 + HOUR, reason: 'later' });
    expect(store.postMetrics.readingsPaused('analytics:c1', T0 + HOUR)).toBeNull();
    expect(store.postMetrics.prunePauses(T0 + HOUR)).toBe(1);
  });
});
