import type { ClaimedTarget, FinishRequest } from '../../src/store/target-queue';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/store-dialects';
import { createCredentialsService } from '../../src/store/credentials';
import { createTargetQueue } from '../../src/store/target-queue';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { insertTarget, seedUser, T0, USER } from '../scheduler/harness';

function setup() {
  const db = openTestDatabase(':memory:');
  seedUser(db, T0);
  const queue = createTargetQueue(db);
  const status = (id: string) => db.prepare('SELECT status FROM targets WHERE id = ?').pluck().get(id) as string;
  const events = (type: string) => db.prepare('SELECT subject FROM events WHERE type = ? ORDER BY id').pluck().all(type) as string[];
  const attempts = (id: string) =>
    db.prepare('SELECT number, started_at, ended_at, outcome, error_code FROM attempts WHERE target_id = ? ORDER BY id').all(id) as {
      number: number;
      started_at: number;
      ended_at: number | null;
      outcome: string | null;
      error_code: string | null;
    }[];
  return { db, queue, status, events, attempts };
}

const published = (id: string, owner: string, now: number, postId = `post-${id}`): FinishRequest => ({
  id,
  owner,
  now,
  detail: null,
  end: { status: 'published', postId, postUrl: `https://example.test/${postId}`, publishedAt: now - 5, outcome: 'published' },
});

describe('batched claims (claimMany)', () => {
  it('claims every due scheduled target of the list in one go, each once, with its attempt row and its outbox event, and leaves the rest alone', () => {
    const { db, queue, status, events, attempts } = setup();
    const due = [insertTarget(db, { due: T0 - 10 }), insertTarget(db, { due: T0, platform: 'threads', caption: 'hello' })];
    const later = insertTarget(db, { due: T0 + 1_000 });
    const held = insertTarget(db, { due: T0, status: 'pending_approval' });
    const ids = [due[0] as string, later, 'tgt_missing', due[1] as string, held, due[0] as string];
    const claimed = queue.claimMany(ids, T0, 'me', T0 + 60_000);

    expect(claimed.map((c) => (typeof c === 'object' && c !== null ? c.id : c))).toEqual([due[0], null, null, due[1], null, null]);
    expect(claimed[3]).toMatchObject({ platform: 'threads', caption: 'hello', attempt: 1, attemptStartedAt: T0, checkpoint: {}, mediaUrls: [] });
    for (const id of due) {
      expect(status(id)).toBe('publishing');
      expect(attempts(id)).toEqual([{ number: 1, started_at: T0, ended_at: null, outcome: null, error_code: null }]);
    }
    expect(db.prepare('SELECT lease_owner, lease_until FROM targets WHERE id = ?').get(due[0])).toEqual({ lease_owner: 'me', lease_until: T0 + 60_000 });
    expect([status(later), status(held)]).toEqual(['scheduled', 'pending_approval']);
    expect(attempts(later)).toEqual([]);
    // The outbox rule: each state change has its event, written in the same transaction.
    expect(events('target.publishing').sort()).toEqual([...due].sort());
    expect(db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(`job_${due[0]}`)).toBe('publishing');

    // A second claim of the same targets is a lost compare-and-set: nothing claimed, nothing written.
    expect(queue.claimMany(due, T0 + 1, 'other', T0 + 60_000)).toEqual([null, null]);
    expect(attempts(due[0] as string)).toHaveLength(1);
  });
});

describe('the connection state with the claim', () => {
  it("reads each claimed target's account state in the claim: active, expired with its reason, or missing", () => {
    const { db, queue } = setup();
    db.prepare("UPDATE connections SET status = 'expired', status_reason = 'token revoked' WHERE platform = 'threads'").run();
    db.prepare("DELETE FROM connections WHERE platform = 'facebook'").run();
    const ids = [insertTarget(db, { due: T0 }), insertTarget(db, { due: T0, platform: 'threads' }), insertTarget(db, { due: T0, platform: 'facebook' })];
    const claimed = queue.claimMany(ids, T0, 'me', T0 + 60_000).map((c) => {
      if (typeof c !== 'object' || c === null) throw new Error(`not claimed: ${c}`);
      return c;
    });
    expect(claimed.map((c) => c.connection)).toEqual([
      { state: 'active', reason: null },
      { state: 'expired', reason: 'token revoked' },
      { state: 'missing', reason: null },
    ]);
    // As the one-target read answers.
    expect(claimed.map((c) => queue.connectionState(c.userId, c.platform, c.connectionId, c.label))).toEqual(claimed.map((c) => c.connection));
  });

  it("reads each claimed target's credentials row with it, its secrets sealed, as the one-target read opens them", () => {
    const { db, queue } = setup();
    const credentials = createCredentialsService(db, new SecretBox(Buffer.alloc(32, 3)), new ManualClock(T0));
    credentials.saveTokens('con_user-1_twitter', { secrets: { access_token: 'tw-token' }, tokenExpiresAt: T0 + 3_600_000 });
    db.prepare("UPDATE connections SET account_name = 'Brand', meta = '{\"k\":1}' WHERE platform = 'twitter'").run();
    db.prepare("DELETE FROM connections WHERE platform = 'facebook'").run();
    const ids = [insertTarget(db, { due: T0 }), insertTarget(db, { due: T0, platform: 'threads' }), insertTarget(db, { due: T0, platform: 'facebook' })];
    const [x, t, f] = queue.claimMany(ids, T0, 'me', T0 + 60_000) as ClaimedTarget[];
    expect(x?.credentials?.secrets_enc).toMatch(/^v1\./);
    expect(x?.credentials?.secrets_enc).not.toContain('tw-token');
    expect(credentials.credentialsOf(x!.credentials!)).toEqual(credentials.credentialsFor(USER, 'twitter'));
    expect(credentials.credentialsOf(x!.credentials!)).toMatchObject({ connectionId: 'con_user-1_twitter', accountName: 'Brand', secrets: { access_token: 'tw-token' }, tokenExpiresAt: T0 + 3_600_000, meta: { k: 1 } });
    expect(credentials.credentialsOf(t!.credentials!)).toEqual(credentials.credentialsFor(USER, 'threads'));
    expect(f?.credentials).toBeNull();
  });
});

describe("the jobs' status through batched claims and ends", () => {
  it('is publishing once any target of a job is claimed and settles with its last target, each job finished once', () => {
    const { db, queue, events } = setup();
    const job = db.prepare(
      "INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, 'post', '[]', '[]', ?, ?, ?, ?)",
    );
    const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, 'scheduled', ?)");
    // Ids whose order differs from their jobs' order (job_b's target comes first).
    for (const [jobId, targets] of [
      ['job_b', [['t1', 'twitter'], ['t4', 'threads']]],
      ['job_a', [['t2', 'twitter'], ['t3', 'facebook']]],
    ] as const) {
      job.run(jobId, USER, T0, T0, T0, T0);
      for (const [id, platform] of targets) target.run(id, jobId, USER, platform, T0, T0);
    }
    const jobStatus = () => db.prepare("SELECT id, status FROM jobs WHERE id IN ('job_a', 'job_b') ORDER BY id").all();
    queue.claimMany(['t1', 't2', 't3'], T0, 'me', T0 + 60_000);
    expect(jobStatus()).toEqual([
      { id: 'job_a', status: 'publishing' },
      { id: 'job_b', status: 'publishing' },
    ]);
    expect(queue.finishMany([published('t1', 'me', T0 + 10), published('t2', 'me', T0 + 10), published('t3', 'me', T0 + 10)])).toEqual([true, true, true]);
    // job_b still has t4 scheduled; job_a is done.
    expect(jobStatus()).toEqual([
      { id: 'job_a', status: 'published' },
      { id: 'job_b', status: 'scheduled' },
    ]);
    queue.claimMany(['t4'], T0 + 20, 'me', T0 + 60_000);
    expect(queue.finishMany([{ id: 't4', owner: 'me', now: T0 + 30, detail: null, end: { status: 'failed', error: { code: 'platform_error', message: 'no', platformCode: null } } }])).toEqual([true]);
    expect(jobStatus()).toEqual([
      { id: 'job_a', status: 'published' },
      { id: 'job_b', status: 'partially_published' },
    ]);
    expect(events('post.finished')).toEqual(['job_a', 'job_b']);
  });
});

describe('batched checkpoint saves (saveCheckpoints)', () => {
  it('merges each patch and its replies and extends the lease only where the lease is still held, answering per save', () => {
    const { db, queue } = setup();
    const ids = [insertTarget(db, { due: T0 }), insertTarget(db, { due: T0, platform: 'threads' }), insertTarget(db, { due: T0, platform: 'facebook' })];
    queue.claimMany(ids, T0, 'me', T0 + 60_000);
    expect(queue.saveCheckpoints([{ id: ids[0]!, owner: 'me', patch: { step: 'posting', keep: 1 }, now: T0 + 1, leaseUntil: T0 + 90_000 }])).toEqual([true]);
    const saved = queue.saveCheckpoints([
      { id: ids[0]!, owner: 'me', patch: { step: 'posted', keep: null, post_id: 'p1' }, now: T0 + 2, leaseUntil: T0 + 120_000 },
      { id: ids[1]!, owner: 'other', patch: { step: 'posting' }, now: T0 + 2, leaseUntil: T0 + 120_000 },
      { id: ids[2]!, owner: 'me', patch: { step: 'posting' }, now: T0 + 2, leaseUntil: T0 + 120_000, followUps: { comment: { id: 'c1', url: 'https://example.test/c1' } } },
    ]);
    expect(saved).toEqual([true, false, true]);
    const row = (id: string) => db.prepare('SELECT checkpoint, follow_ups, lease_until, updated_at FROM targets WHERE id = ?').get(id) as { checkpoint: string; follow_ups: string; lease_until: number; updated_at: number };
    expect(JSON.parse(row(ids[0]!).checkpoint)).toEqual({ step: 'posted', post_id: 'p1' });
    expect(row(ids[0]!)).toMatchObject({ lease_until: T0 + 120_000, updated_at: T0 + 2 });
    // Not the lease holder's save: nothing written.
    expect(JSON.parse(row(ids[1]!).checkpoint)).toEqual({});
    expect(row(ids[1]!).lease_until).toBe(T0 + 60_000);
    expect(JSON.parse(row(ids[2]!).follow_ups)).toEqual({ comment: { id: 'c1', url: 'https://example.test/c1' } });
    expect(queue.checkpointOf(ids[2]!)).toEqual({ step: 'posting' });
  });
});

describe('batched attempt ends (finishMany)', () => {
  it('writes the published ends together and the others one by one, only where the lease is still held, each with its attempt closed and its event', () => {
    const { db, queue, status, events, attempts } = setup();
    const ids = [0, 1, 2, 3, 4].map(() => insertTarget(db, { due: T0 }));
    const [a, b, c, d, e] = ids as [string, string, string, string, string];
    queue.claimMany(ids, T0, 'me', T0 + 60_000);
    // d was taken over by another process: its end must not be written.
    db.prepare("UPDATE targets SET lease_owner = 'other' WHERE id = ?").run(d);

    const results = queue.finishMany([
      published(a, 'me', T0 + 300),
      published(b, 'me', T0 + 310, 'b-post'),
      {
        id: c,
        owner: 'me',
        now: T0 + 320,
        detail: 'retry detail',
        end: {
          status: 'scheduled',
          nextAttemptAt: T0 + 30_000,
          outcome: 'retry',
          attemptErrorCode: 'platform_error',
          error: { code: 'platform_error', message: '503', platformCode: '503' },
        },
      },
      published(d, 'me', T0 + 330),
      published(e, 'me', T0 + 340),
      // A second end for a target already ended in this call: its lease is gone.
      published(a, 'me', T0 + 350, 'again'),
    ]);

    expect(results).toEqual([true, true, true, false, true, false]);
    expect(db.prepare('SELECT status, post_id, post_url, published_at, updated_at, lease_owner, lease_until FROM targets WHERE id = ?').get(b)).toEqual({
      status: 'published',
      post_id: 'b-post',
      post_url: 'https://example.test/b-post',
      published_at: T0 + 305,
      updated_at: T0 + 310,
      lease_owner: null,
      lease_until: null,
    });
    expect(db.prepare('SELECT post_id FROM targets WHERE id = ?').pluck().get(a)).toBe(`post-${a}`);
    expect([status(c), status(d)]).toEqual(['scheduled', 'publishing']);
    expect(attempts(a)).toEqual([{ number: 1, started_at: T0, ended_at: T0 + 300, outcome: 'published', error_code: null }]);
    expect(attempts(c)).toEqual([{ number: 1, started_at: T0, ended_at: T0 + 320, outcome: 'retry', error_code: 'platform_error' }]);
    expect(attempts(d)).toEqual([{ number: 1, started_at: T0, ended_at: null, outcome: null, error_code: null }]);
    expect(events('target.published').sort()).toEqual([a, b, e].sort());
    expect(events('target.retrying')).toEqual([c]);
    // Each single-target job finished: its post.finished event is in the outbox too.
    expect(events('post.finished').sort()).toEqual([`job_${a}`, `job_${b}`, `job_${e}`].sort());
  });

  it('records the attempt closed when a published target has no open attempt row (left by an older version or a manual edit)', () => {
    const { db, queue, attempts } = setup();
    const [a, b] = [insertTarget(db, { due: T0 }), insertTarget(db, { due: T0 })] as [string, string];
    queue.claimMany([a], T0, 'me', T0 + 60_000);
    db.prepare("UPDATE targets SET status = 'publishing', lease_owner = 'me', attempts = 3, attempt_started_at = ? WHERE id = ?").run(T0 - 50, b);
    expect(queue.finishMany([published(a, 'me', T0 + 100), published(b, 'me', T0 + 100)])).toEqual([true, true]);
    expect(attempts(a)).toEqual([{ number: 1, started_at: T0, ended_at: T0 + 100, outcome: 'published', error_code: null }]);
    expect(attempts(b)).toEqual([{ number: 3, started_at: T0 - 50, ended_at: T0 + 100, outcome: 'published', error_code: null }]);
  });

  it('writes a lone published end as finish does', () => {
    const { db, queue, status, attempts } = setup();
    const id = insertTarget(db, { due: T0 });
    queue.claimMany([id], T0, 'me', T0 + 60_000);
    expect(queue.finishMany([published(id, 'other', T0 + 100)])).toEqual([false]);
    expect(queue.finishMany([published(id, 'me', T0 + 200)])).toEqual([true]);
    expect(status(id)).toBe('published');
    expect(attempts(id)).toEqual([{ number: 1, started_at: T0, ended_at: T0 + 200, outcome: 'published', error_code: null }]);
  });
});
