import { randomBytes } from 'node:crypto';
import type { Platform } from '@socialpub/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPostsService, type PostsService } from '../../src/jobs/jobs-service';
import { guessingMediaLookup } from '../../src/ports/media';
import { type DB } from '../../src/store/database';
import { openTestDatabase } from '../support/store-dialects';
import { createStore, type Store } from '../../src/store/store';
import type { User } from '../../src/store/users';
import { ManualClock } from '../../src/util/clock';
import { silentLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';
import { ServiceError } from '../../src/util/service-error';
import { RecordingScheduler } from '../http/harness';

const NOW = Date.UTC(2026, 11, 25, 9, 0, 0);
const iso = (h: number, m = 0) => new Date(Date.UTC(2026, 11, 25, h, m)).toISOString();

/** The refusal a call ends in. */
async function refusal(p: Promise<unknown> | (() => unknown)): Promise<ServiceError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('jobs service (called without HTTP)', () => {
  let store: Store;
  let db: DB;
  let clock: ManualClock;
  let scheduler: RecordingScheduler;
  let jobs: PostsService;
  let user: User;

  const connect = (platforms: Platform[], userId = user.id) => {
    for (const p of platforms) store.connections.save(userId, p, { mode: 'sandbox', accountId: `acct_${p}`, secrets: { access_token: `tok_${p}` } });
  };

  beforeEach(() => {
    clock = new ManualClock(NOW);
    db = openTestDatabase(':memory:');
    store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
    scheduler = new RecordingScheduler();
    jobs = createPostsService({ store, clock, logger: silentLogger, scheduler, mediaLookup: guessingMediaLookup, adapters: new Map(), publicBaseUrl: null });
    user = store.users.ensure('me@example.com', NOW).user;
    connect(['twitter', 'threads']);
  });

  it('publish stores the job and its targets, commits the caller\'s writes in the same transaction, then tells the scheduler', async () => {
    const inside: boolean[] = [];
    const result = await jobs.publish(
      user,
      { caption: 'hello', platforms: ['twitter', 'threads'], scheduled_for: iso(10), type_schedule: { threads: '+2h' } },
      { alsoCommit: (answer, now) => inside.push(db.inTransaction && answer.job_id.startsWith('job_') && now === NOW) },
    );
    expect(inside).toEqual([true]);
    expect(result.status).toBe('scheduled');
    expect(result.message).toBe(`Scheduled for 2026-12-25T10:00:00.000Z on twitter, threads`);
    const job = store.jobs.get(result.job_id)!;
    expect(job.userId).toBe(user.id);
    expect(job.targets.map((t) => [t.platform, t.status, new Date(t.dueAt).toISOString()])).toEqual([
      ['twitter', 'scheduled', '2026-12-25T10:00:00.000Z'],
      ['threads', 'scheduled', '2026-12-25T12:00:00.000Z'],
    ]);
    expect(scheduler.changed).toEqual([job.targets.map((t) => t.id)]);
  });

  it('a refused publish stores nothing and tells no one', async () => {
    const e = await refusal(jobs.publish(user, { caption: 'hello', platforms: ['instagram'], scheduled_for: iso(10) }));
    expect(e.code).toBe('invalid_request'); // instagram needs media: the rules run before the connections
    const e2 = await refusal(jobs.publish(user, { caption: 'hello', platforms: ['tiktok'], scheduled_for: iso(10), media_urls: ['https://x.example/a.mp4'] }));
    expect(e2.code).toBe('platform_not_connected');
    expect(e2.details).toEqual([{ path: 'platforms', platform: 'tiktok', message: 'tiktok is not connected (connect it with: socialpub connect tiktok)' }]);
    expect(store.jobs.list(user.id, { status: 'all', limit: 10, after: null }).jobs).toEqual([]);
    expect(scheduler.changed).toEqual([]);
  });

  it('publish, validate and update judge a caption by the same rules', async () => {
    const long = 'x'.repeat(281);
    const e = await refusal(jobs.publish(user, { caption: long, platforms: ['twitter'], scheduled_for: iso(10) }));
    const expected = { path: 'caption', platform: 'twitter', type: 'tweet', message: 'twitter captions are at most 280 characters (this one counts 281)' };
    expect(e.details).toEqual([expected]);

    const v = await jobs.validate(user, { caption: long, platforms: ['twitter'], scheduled_for: iso(10) });
    expect(v.valid).toBe(false);
    expect(v.errors).toEqual([{ ...expected, code: 'invalid_request' }]);

    const ok = await jobs.publish(user, { caption: 'short', platforms: ['twitter'], scheduled_for: iso(10) });
    const u = await refusal(jobs.update(user, ok.job_id, { caption: long }));
    expect(u.code).toBe('invalid_request');
    expect(u.details).toEqual([expected]);
    expect(store.jobs.get(ok.job_id)!.caption).toBe('short');
  });

  it('validate reports schema problems as data, with no job stored', async () => {
    const v = await jobs.validate(user, { platforms: ['twitter'] });
    expect(v.valid).toBe(false);
    expect(v.errors.map((d) => [d.path, d.code])).toEqual([['caption', 'invalid_request']]);
    expect(store.jobs.list(user.id, { status: 'all', limit: 10, after: null }).jobs).toEqual([]);
  });

  it('update re-times the targets not started, durably, and returns the stored job', async () => {
    const { job_id } = await jobs.publish(user, { caption: 'a', platforms: ['twitter', 'threads'], scheduled_for: iso(10), type_schedule: { threads: '+1h' } });
    scheduler.changed = [];
    const durable = vi.spyOn(store.commits, 'durable');
    clock.set(NOW + 60_000);
    const change = await jobs.update(user, job_id, { scheduled_for: iso(14), caption: 'b' });
    expect(durable).toHaveBeenCalledTimes(1);
    expect(change.message).toBe(`Updated ${job_id}; 2 targets re-timed`);
    expect(change.post.caption).toBe('b');
    expect(change.post.targets.map((t) => t.scheduled_for)).toEqual(['2026-12-25T14:00:00.000Z', '2026-12-25T15:00:00.000Z']);
    expect(change.post.updated_at).toBe('2026-12-25T09:01:00.000Z');
    expect(scheduler.changed).toEqual([store.jobs.get(job_id)!.targets.map((t) => t.id)]);

    const past = await refusal(jobs.update(user, job_id, { scheduled_for: iso(8) }));
    expect(past.details).toEqual([{ path: 'scheduled_for', message: 'is more than 60 seconds in the past' }]);
  });

  it('cancel is idempotent, and refuses once every target has started', async () => {
    const a = await jobs.publish(user, { caption: 'a', platforms: ['twitter'], scheduled_for: iso(10) });
    expect((await jobs.cancel(user, a.job_id)).message).toBe(`Cancelled ${a.job_id}`);
    expect(store.jobs.get(a.job_id)!.targets.map((t) => t.status)).toEqual(['cancelled']);
    expect((await jobs.cancel(user, a.job_id)).status).toBe('cancelled');

    const b = await jobs.publish(user, { caption: 'b', platforms: ['twitter'], scheduled_for: iso(10) });
    db.prepare("UPDATE targets SET status = 'published' WHERE job_id = ?").run(b.job_id);
    const e = await refusal(jobs.cancel(user, b.job_id));
    expect(e.code).toBe('conflict');
    expect(e.message).toBe(`nothing left to cancel: ${b.job_id} is published; targets that started or finished cannot be cancelled`);
  });

  it('approve releases a held job, reject cancels one, and neither applies twice', async () => {
    const held = await jobs.publish(user, { caption: 'a', platforms: ['twitter'], scheduled_for: iso(10), require_approval: true });
    expect(held.status).toBe('pending_approval');
    const ids = store.jobs.get(held.job_id)!.targets.map((t) => t.id);
    const approved = await jobs.approve(user, held.job_id);
    expect(approved.post.status).toBe('scheduled');
    expect(scheduler.changed).toEqual([ids, ids]); // stored (held), then released
    expect((await refusal(jobs.approve(user, held.job_id))).code).toBe('conflict');

    const other = await jobs.publish(user, { caption: 'b', platforms: ['twitter'], scheduled_for: iso(10), require_approval: true });
    const rejected = await jobs.reject(user, other.job_id);
    expect(rejected.message).toBe(`Rejected ${other.job_id}; its pending targets are cancelled`);
    expect(rejected.post.targets.map((t) => t.status)).toEqual(['cancelled']);
  });

  it('holds every job of a user whose workflow asks for approval', async () => {
    store.users.setApprovalWorkflow(user.id, true);
    const r = await jobs.publish(store.users.get(user.id)!, { caption: 'now', platforms: ['twitter'], publish_now: true });
    expect(r.status).toBe('pending_approval');
    expect(r.message).toBe('Waiting for approval before publishing to twitter');
  });

  it('a job is reachable only by its owner', async () => {
    const { job_id } = await jobs.publish(user, { caption: 'a', platforms: ['twitter'], scheduled_for: iso(10) });
    const stranger = store.users.ensure('other@example.com', NOW).user;
    for (const call of [() => jobs.get(stranger, job_id), () => jobs.cancel(stranger, job_id), () => jobs.update(stranger, job_id, { caption: 'x' }), () => jobs.approve(stranger, job_id)]) {
      expect((await refusal(call)).code).toBe('forbidden');
    }
    expect((await refusal(() => jobs.get(user, 'job_nope'))).message).toBe('no job job_nope');
    expect(store.jobs.get(job_id)!.caption).toBe('a');
    expect(jobs.list(stranger, { status: 'all', limit: 10, after: null }).posts).toEqual([]);
    expect(jobs.list(user, { status: 'all', limit: 10, after: null }).posts.map((p) => p.job_id)).toEqual([job_id]);
  });

  it('a failing scheduler notification does not undo or fail a stored change', async () => {
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (msg: string) => void errors.push(msg) };
    const broken = createPostsService({
      store, clock, logger, mediaLookup: guessingMediaLookup, adapters: new Map(), publicBaseUrl: null,
      scheduler: { targetsChanged: () => { throw new Error('down'); }, status: scheduler.status },
    });
    const r = await broken.publish(user, { caption: 'a', platforms: ['twitter'], scheduled_for: iso(10) });
    expect(store.jobs.get(r.job_id)!.targets).toHaveLength(1);
    expect(errors).toEqual(['scheduler notification failed; its loader will pick the targets up']);
  });
});
