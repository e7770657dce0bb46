import { describe, expect, it } from 'vitest';
import { presentEvent } from '../../src/events/present-event';
import { failInserts, openTestDatabase } from '../support/store-dialects';
import { MediaStore } from '../../src/store/media-files';
import { createEventsRepository } from '../../src/store/events';
import { createTargetQueue } from '../../src/store/target-queue';
import { API } from '../http/harness';
import { T0, useWorlds } from '../scheduler/harness';
import { eventsWorld } from './world';

const world = useWorlds();

type Row = { id: number; type: string; job_id: string | null; subject: string | null; data: string; created_at: number };
const eventsOf = (db: ReturnType<typeof openTestDatabase>) =>
  (db.prepare('SELECT * FROM events ORDER BY id').all() as Row[]).map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));

describe('outbox: events of the publisher, written by its store operations in the same transaction', () => {
  it('a published target: publishing, published (post id, URL), then post.finished', async () => {
    const w = world();
    const id = w.add({ due: T0 + 1_000 });
    await w.start();
    await w.advance(1_000);
    const events = eventsOf(w.db);
    expect(events.map((e) => [e.type, e.subject])).toEqual([
      ['target.publishing', id],
      ['target.published', id],
      ['post.finished', `job_${id}`],
    ]);
    expect(events[1]).toMatchObject({
      job_id: `job_${id}`,
      created_at: T0 + 1_000,
      data: { target_id: id, platform: 'twitter', post_id: `test_${id}_1`, post_url: `https://test.invalid/twitter/test_${id}_1`, published_at: T0 + 1_000, attempt: 1 },
    });
    expect(events[2]?.data).toMatchObject({ job_id: `job_${id}`, status: 'published', targets: [{ target_id: id, status: 'published', post_id: `test_${id}_1` }] });
    // Presented: ISO times, the envelope's id and version.
    const presented = presentEvent(createEventsRepository(w.db).get(events[1]!.id)!);
    expect(presented).toMatchObject({ id: `evt_${events[1]!.id}`, type: 'target.published', version: 1, timestamp: new Date(T0 + 1_000).toISOString() });
    expect(presented.data.published_at).toBe(new Date(T0 + 1_000).toISOString());
  });

  it('retrying (error, next attempt), failed, needs_review, and post.finished failed', async () => {
    const w = world({ publisher: { backoff: { baseMs: 30_000, capMs: 30_000 }, maxAttempts: 2 } });
    const retried = w.add({ due: T0 });
    w.adapter('twitter').inject({ kind: 'retryable', platformCode: '503' }, { times: 2 });
    await w.start();
    const retry = eventsOf(w.db).find((e) => e.type === 'target.retrying');
    expect(retry?.data).toMatchObject({ target_id: retried, next_attempt_at: T0 + 30_000, error: { code: 'platform_error', platform_code: '503' } });
    await w.advance(30_000);
    expect(eventsOf(w.db).map((e) => e.type)).toEqual([
      'target.publishing',
      'target.retrying',
      'target.publishing',
      'target.failed',
      'post.finished',
    ]);
    expect(eventsOf(w.db).at(-1)?.data).toMatchObject({ status: 'failed' });
    const review = w.add({ due: T0 + 60_000, platform: 'instagram' });
    w.adapter('instagram').inject({ kind: 'outcome_unknown', posted: false });
    w.scheduler.targetsChanged([review]);
    await w.advance(30_000);
    const last = eventsOf(w.db).filter((e) => e.subject === review);
    expect(last.map((e) => e.type)).toEqual(['target.publishing', 'target.needs_review']);
    expect(last[1]?.data).toMatchObject({ error: { code: 'outcome_unknown' } });
  });

  it('writes nothing when the change rolls back', () => {
    const db = openTestDatabase(':memory:');
    const w = world({ db });
    void w;
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'u@x', 0)").run();
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_1', 'u', 'c', '[]', 0, 0, 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('tgt_1', 'job_1', 'u', 'twitter', 'tweet', 0, 'publishing', 0)").run();
    db.prepare("INSERT INTO webhook_endpoints (id, user_id, url, event_types, secret_enc, created_at, updated_at) VALUES ('whk_1', 'u', 'https://x.example/h', '[\"*\"]', 's', 0, 0)").run();
    db.prepare("UPDATE targets SET lease_owner = 'me' WHERE id = 'tgt_1'").run();
    const queue = createTargetQueue(db);
    const published = { status: 'published', postId: 'p', postUrl: null, publishedAt: 5, outcome: 'published' } as const;
    const change = db.transaction(() => {
      expect(queue.finish('tgt_1', 'me', 5, published)).toBe(true);
      throw new Error('crash before commit');
    });
    expect(() => change()).toThrow('crash before commit');
    expect(eventsOf(db)).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM webhook_messages').get()).toEqual({ n: 0 });
    expect(queue.finish('tgt_1', 'me', 5, published)).toBe(true);
    expect(eventsOf(db).map((e) => e.type)).toEqual(['target.published', 'post.finished']);
    // Fanned out to the endpoint in the same commit, in event order.
    expect(db.prepare('SELECT event_id FROM webhook_messages ORDER BY id').pluck().all()).toEqual(eventsOf(db).map((e) => e.id));
  });
});

describe('outbox: events of the jobs service, in its transactions', () => {
  const body = { caption: 'hello', platforms: ['twitter'], scheduled_for: '2026-12-26T10:00:00Z' };

  it('accepted, pending approval, approved, retimed, cancelled, rejected — each with its commit only', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const publish = async (extra: Record<string, unknown> = {}) => ((await (await w.call('POST', `${API}/content/publish`, { body: { ...body, ...extra } })).json()) as { job_id: string }).job_id;
    const a = await publish();
    expect(w.eventTypes()).toEqual(['post.accepted']);
    const held = await publish({ require_approval: true });
    expect(w.eventTypes().slice(1)).toEqual(['post.accepted', 'post.pending_approval']);
    await w.call('POST', `${API}/content/scheduled/approve?job_id=${held}`);
    await w.call('PATCH', `${API}/content/scheduled?job_id=${a}`, { body: { scheduled_for: '2026-12-27T10:00:00Z' } });
    await w.call('DELETE', `${API}/content/scheduled?job_id=${a}`);
    const rejected = await publish({ require_approval: true });
    await w.call('POST', `${API}/content/scheduled/reject?job_id=${rejected}`);
    const rows = eventsOf(w.db);
    expect(rows.map((e) => [e.type, e.job_id])).toEqual([
      ['post.accepted', a],
      ['post.accepted', held],
      ['post.pending_approval', held],
      ['post.approved', held],
      ['post.retimed', a],
      ['post.cancelled', a],
      ['post.accepted', rejected],
      ['post.pending_approval', rejected],
      ['post.rejected', rejected],
    ]);
    expect(rows[4]?.data).toMatchObject({ job_id: a, targets: [{ scheduled_for: Date.parse('2026-12-27T10:00:00Z'), status: 'scheduled' }] });
    expect(rows[5]?.data).toMatchObject({ targets: [{ status: 'cancelled' }] });

    // Refused changes write nothing: a bad publish, cancelling again, approving what is not held.
    const before = rows.length;
    expect((await w.call('POST', `${API}/content/publish`, { body: { ...body, platforms: ['myspace'] } })).status).toBe(400);
    expect((await w.call('POST', `${API}/content/scheduled/approve?job_id=${a}`)).status).toBe(409);
    expect((await w.call('PATCH', `${API}/content/scheduled?job_id=${a}`, { body: { scheduled_for: '2026-12-28T10:00:00Z' } })).status).toBe(409);
    expect(eventsOf(w.db)).toHaveLength(before);
  });

  it('a publish whose transaction fails writes no event', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    failInserts(w.db, 'jobs', 'disk full');
    const res = await w.call('POST', `${API}/content/publish`, { body });
    expect(res.status).toBe(500);
    expect(w.eventTypes()).toEqual([]);
  });
});

describe('outbox: media, connections, retention', () => {
  it('media task completed/failed, connection expired, refresh failed, expiring soon once per token', () => {
    const w = eventsWorld();
    w.connect(['twitter', 'youtube']);
    const now = w.clock.now();
    w.db.prepare("INSERT INTO media_tasks (id, user_id, status, deadline_at, created_at, updated_at) VALUES ('task_a', ?, 'processing', ?, ?, ?)").run(w.user.id, now + 1, now, now);
    w.db.prepare("INSERT INTO media_tasks (id, user_id, status, deadline_at, created_at, updated_at) VALUES ('task_b', ?, 'processing', ?, ?, ?)").run(w.user.id, now + 1, now, now);
    const media = new MediaStore(w.db);
    media.finishTask('task_a', 'completed', null, now + 5);
    media.finishTask('task_b', 'failed', { code: 'too_large', message: 'big' }, now + 6);
    media.finishTask('task_b', 'failed', { code: 'too_large', message: 'again' }, now + 7); // no longer processing: no second event
    const conn = w.store.connections.get(w.user.id, 'twitter')!;
    w.store.credentials.markExpired(conn.id, 'token revoked');
    w.store.credentials.markExpired(conn.id, 'still revoked'); // already expired: no second event
    w.store.events.refreshFailed(conn.id, 'HTTP 503', true, now);
    const yt = w.store.connections.get(w.user.id, 'youtube')!;
    w.db.prepare("UPDATE connections SET mode = 'live', token_expires_at = ? WHERE id = ?").run(now + 3_600_000, yt.id);
    expect(w.store.events.warnExpiring(now, 86_400_000)).toBe(1);
    expect(w.store.events.warnExpiring(now + 60_000, 86_400_000)).toBe(0);
    w.db.prepare('UPDATE connections SET token_expires_at = ? WHERE id = ?').run(now + 7_200_000, yt.id);
    expect(w.store.events.warnExpiring(now + 60_000, 86_400_000)).toBe(1);
    const rows = eventsOf(w.db);
    expect(rows.map((e) => e.type)).toEqual([
      'media.task_completed',
      'media.task_failed',
      'connection.expired',
      'connection.refresh_failed',
      'connection.expiring_soon',
      'connection.expiring_soon',
    ]);
    expect(rows[0]).toMatchObject({ subject: 'task_a', created_at: now + 5, data: { task_id: 'task_a', status: 'completed', error: null } });
    expect(rows[1]?.data).toEqual({ task_id: 'task_b', status: 'failed', error: { code: 'too_large', message: 'big' } });
    expect(rows[2]?.data).toEqual({ connection_id: conn.id, platform: 'twitter', label: 'default', reason: 'token revoked' });
    expect(rows[3]?.data).toEqual({ connection_id: conn.id, platform: 'twitter', label: 'default', error: 'HTTP 503', will_retry: true });
    expect(rows[4]?.data).toMatchObject({ connection_id: yt.id, platform: 'youtube', label: 'default' });
  });

  it('drops events past retention unless a pending delivery still needs them', () => {
    const w = eventsWorld();
    const e1 = w.store.events.append({ userId: w.user.id, type: 'post.accepted', data: {}, at: 1_000 });
    w.db.prepare("INSERT INTO webhook_endpoints (id, user_id, url, event_types, secret_enc, created_at, updated_at) VALUES ('whk_1', ?, 'https://x.example/h', '[\"post.finished\"]', 's', 0, 0)").run(w.user.id);
    const e2 = w.store.events.append({ userId: w.user.id, type: 'post.finished', data: {}, at: 2_000 });
    const e3 = w.store.events.append({ userId: w.user.id, type: 'post.accepted', data: {}, at: 9_000 });
    expect(w.store.events.prune(5_000)).toBe(1);
    expect((w.db.prepare('SELECT id FROM events ORDER BY id').pluck().all() as number[])).toEqual([e2, e3]);
    expect(e1).toBeLessThan(e2);
  });
});
