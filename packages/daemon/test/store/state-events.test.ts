import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/store-dialects';
import { createPostsRepository } from '../../src/store/jobs';
import { createRemovalsRepository } from '../../src/store/removals';
import { createTargetQueue, type FinishRequest } from '../../src/store/target-queue';
import { insertTarget, seedUser, T0 } from '../scheduler/harness';

/** The events of state changes, written by the store operations (store/state-events.ts), in the order the triggers before migration 160 wrote them. */
function setup() {
  const db = openTestDatabase(':memory:');
  seedUser(db, T0);
  const queue = createTargetQueue(db);
  /** A second target of `first`'s job. */
  const sibling = (first: string, platform = 'threads') => {
    const id = `${first}_b`;
    db.prepare(
      "INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) SELECT ?, job_id, user_id, ?, 'post', due_at, 'scheduled', updated_at FROM targets WHERE id = ?",
    ).run(id, platform, first);
    return id;
  };
  const events = () =>
    (db.prepare('SELECT type, subject, data, created_at FROM events ORDER BY id').all() as { type: string; subject: string; data: string; created_at: number }[]).map((e) => ({
      ...e,
      data: JSON.parse(e.data) as Record<string, unknown>,
    }));
  const jobStatus = (jobId: string) => db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(jobId);
  return { db, queue, sibling, events, jobStatus };
}

const published = (id: string, now: number): FinishRequest => ({
  id,
  owner: 'me',
  now,
  detail: null,
  end: { status: 'published', postId: `post-${id}`, postUrl: null, publishedAt: now, outcome: 'published' },
});
const failed = (id: string, now: number): FinishRequest => ({
  id,
  owner: 'me',
  now,
  detail: null,
  end: { status: 'failed', error: { code: 'platform_error', message: 'refused', platformCode: '400' } },
});

describe('events of state changes, from the store operations', () => {
  it('a batch of attempt ends: each target event, then post.finished right after the last event of each job it settled', () => {
    const { db, queue, sibling, events, jobStatus } = setup();
    const a = insertTarget(db, { due: T0 });
    const b = sibling(a);
    const c = insertTarget(db, { due: T0 });
    expect(queue.claimMany([a, b, c], T0, 'me', T0 + 60_000).every((x) => x !== null)).toBe(true);
    expect(queue.finishMany([published(a, T0 + 100), published(c, T0 + 110), failed(b, T0 + 120)])).toEqual([true, true, true]);
    const types = events().map((e) => [e.type, e.subject]);
    expect(types.slice(0, 3).map(([t]) => t)).toEqual(['target.publishing', 'target.publishing', 'target.publishing']);
    const rest = types.slice(3);
    // Per job as the triggers wrote them: c's finish right after its target; a's job finished by b's failure.
    expect(rest.indexOf(['post.finished', `job_${c}`].join() as never)).toBe(-1);
    const flat = rest.map((x) => x.join(' '));
    expect(flat.indexOf(`post.finished job_${c}`)).toBe(flat.indexOf(`target.published ${c}`) + 1);
    expect(flat.slice(-2)).toEqual([`target.failed ${b}`, `post.finished job_${a}`]);
    expect(flat).toHaveLength(5);
    const finished = events().find((e) => e.subject === `job_${a}`);
    expect(finished).toMatchObject({
      created_at: T0 + 120,
      data: {
        job_id: `job_${a}`,
        status: 'partially_published',
        targets: [
          { target_id: a, platform: 'twitter', type: 'feed', status: 'published', post_id: `post-${a}`, post_url: null },
          { target_id: b, platform: 'threads', type: 'post', status: 'failed', post_id: null, post_url: null },
        ],
      },
    });
    expect(jobStatus(`job_${a}`)).toBe('partially_published');
    const failure = events().find((e) => e.type === 'target.failed');
    expect(failure?.data).toEqual({ target_id: b, platform: 'threads', connection_id: null, label: null, type: 'post', attempt: 1, error: { code: 'platform_error', message: 'refused', platform_code: '400' } });
  });

  it('cancelling the last unsettled target settles the job: post.finished in the cancel', () => {
    const { db, queue, sibling, events } = setup();
    const a = insertTarget(db, { due: T0 });
    sibling(a);
    queue.claimMany([a], T0, 'me', T0 + 60_000);
    expect(queue.finish(a, 'me', T0 + 100, published(a, T0 + 100).end)).toBe(true);
    expect(events().map((e) => e.type)).toEqual(['target.publishing', 'target.published']);
    expect(createPostsRepository(db).cancel(`job_${a}`, T0 + 200)).toEqual([`${a}_b`]);
    expect(events().at(-1)).toMatchObject({ type: 'post.finished', subject: `job_${a}`, created_at: T0 + 200, data: { status: 'partially_published' } });
  });

  it('a job of a removed and a failed target finishes failed (stored as removed); a take-down never finishes a job again', () => {
    const { db, queue, sibling, events, jobStatus } = setup();
    const a = insertTarget(db, { due: T0 });
    const b = sibling(a);
    queue.claimMany([a, b], T0, 'me', T0 + 60_000);
    queue.finish(a, 'me', T0 + 100, published(a, T0 + 100).end);
    const removals = createRemovalsRepository(db);
    expect(removals.markRemoved(`job_${a}`, a, T0 + 150)).toBe(true);
    expect(events().at(-1)).toMatchObject({ type: 'target.removed', subject: a, created_at: T0 + 150, data: { target_id: a, post_id: `post-${a}`, post_url: null, removed_at: T0 + 150 } });
    expect(queue.finish(b, 'me', T0 + 200, failed(b, T0 + 200).end)).toBe(true);
    expect(events().slice(-2).map((e) => e.type)).toEqual(['target.failed', 'post.finished']);
    expect(events().at(-1)?.data).toMatchObject({ status: 'failed' });
    expect(jobStatus(`job_${a}`)).toBe('removed');

    const c = insertTarget(db, { due: T0 });
    queue.claimMany([c], T0, 'me', T0 + 60_000);
    queue.finish(c, 'me', T0 + 100, published(c, T0 + 100).end);
    const before = events().length;
    expect(removals.markRemoved(`job_${c}`, c, T0 + 300)).toBe(true);
    expect(removals.markRemoved(`job_${c}`, c, T0 + 301)).toBe(false);
    expect(events().slice(before).map((e) => e.type)).toEqual(['target.removed']);
  });

  it('a published target with follow-ups carries thread_posts and comment as stored on the target', () => {
    const { db, queue, events } = setup();
    const a = insertTarget(db, { due: T0 });
    queue.claimMany([a], T0, 'me', T0 + 60_000);
    const thread = [{ part: 2, post_id: 'r2', post_url: null }];
    expect(queue.saveCheckpoint(a, 'me', {}, T0 + 50, T0 + 60_000, { thread, comment: { id: 'c1', url: null } })).toBe(true);
    queue.finish(a, 'me', T0 + 100, published(a, T0 + 100).end);
    expect(events().find((e) => e.type === 'target.published')?.data).toEqual({
      target_id: a,
      platform: 'twitter',
      // Inserted without a connection: no account to name.
      connection_id: null,
      label: null,
      type: 'feed',
      attempt: 1,
      post_id: `post-${a}`,
      post_url: null,
      published_at: T0 + 100,
      thread_posts: thread,
      // Stored with json_patch, which drops the null url (the target view shows the same).
      comment: { id: 'c1' },
    });
  });
});
