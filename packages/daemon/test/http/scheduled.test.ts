import { describe, expect, it } from 'vitest';
import { API, errorOf, harness, type Harness } from './harness';

const SCHEDULED = `${API}/content/scheduled`;
type Post = { job_id: string; status: string; scheduled_for: string | null; caption: string; targets: { platform: string; type: string; scheduled_for: string; status: string }[] };

async function publish(h: Harness, body: Record<string, unknown>): Promise<string> {
  const res = await h.call('POST', `${API}/content/publish`, { body });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 11, 25, hour, minute)).toISOString();
const tweet = (when: string, extra: Record<string, unknown> = {}) => ({ caption: 'hello', platforms: ['twitter'], scheduled_for: when, ...extra });

function setup() {
  const h = harness();
  h.connect(['twitter', 'instagram', 'threads']);
  return h;
}

async function list(h: Harness, query = ''): Promise<{ posts: Post[]; next_cursor: string | null }> {
  const res = await h.call('GET', `${SCHEDULED}${query}`);
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as { posts: Post[]; next_cursor: string | null };
}

describe('GET /content/scheduled', () => {
  it('lists the caller\'s posts ordered by scheduled_for then job_id, page by page', async () => {
    const h = setup();
    const ids = [await publish(h, tweet(at(12))), await publish(h, tweet(at(10))), await publish(h, tweet(at(11))), await publish(h, tweet(at(10)))];
    const other = h.addUser('other@example.com');
    h.connect(['twitter'], other.user.id);
    await h.call('POST', `${API}/content/publish`, { body: tweet(at(9, 30)), headers: { 'X-API-Key': other.key } });

    const expected = [ids[1]!, ids[3]!].sort().concat([ids[2]!, ids[0]!]);
    const page1 = await list(h, '?limit=3');
    expect(page1.posts.map((p) => p.job_id)).toEqual(expected.slice(0, 3));
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await list(h, `?limit=3&cursor=${page1.next_cursor}`);
    expect(page2.posts.map((p) => p.job_id)).toEqual(expected.slice(3));
    expect(page2.next_cursor).toBeNull();
  });

  it('filters by derived job status, default all', async () => {
    const h = setup();
    const a = await publish(h, tweet(at(10)));
    const b = await publish(h, tweet(at(11), { require_approval: true }));
    expect((await list(h, '?status=scheduled')).posts.map((p) => p.job_id)).toEqual([a]);
    expect((await list(h, '?status=pending_approval')).posts.map((p) => p.job_id)).toEqual([b]);
    expect((await list(h)).posts).toHaveLength(2);
    await h.call('DELETE', `${SCHEDULED}?job_id=${a}`);
    expect((await list(h, '?status=cancelled')).posts.map((p) => p.job_id)).toEqual([a]);
  });

  it('answers 400 for an unknown status, a bad limit or a forged cursor', async () => {
    const h = setup();
    for (const q of ['?status=done', '?limit=0', '?limit=201', '?limit=ten', '?cursor=bm9wZQ']) {
      const res = await h.call('GET', `${SCHEDULED}${q}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
  });

  it('returns one post with job_id, with the full representation', async () => {
    const h = setup();
    const id = await publish(h, {
      caption: 'c',
      platforms: ['instagram'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: ['https://cdn.example.com/a.jpg'],
      scheduled_for: at(10),
      type_schedule: { story: '+0h', feed: '+1h' },
    });
    const res = await h.call('GET', `${SCHEDULED}?job_id=${id}`);
    expect(res.status).toBe(200);
    const { post } = (await res.json()) as { post: Record<string, unknown> };
    expect(post).toMatchObject({
      job_id: id,
      status: 'scheduled',
      platforms: ['instagram'],
      platform_types: { instagram: ['story', 'feed'] },
      type_schedule: { story: '+0h', feed: '+1h' },
      require_approval: false,
      scheduled_for: '2026-12-25T10:00:00.000Z',
      targets: [
        { platform: 'instagram', type: 'story', scheduled_for: '2026-12-25T10:00:00.000Z', status: 'scheduled', attempts: 0, post_id: null, post_url: null, published_at: null, error: null },
        { platform: 'instagram', type: 'feed', scheduled_for: '2026-12-25T11:00:00.000Z', status: 'scheduled', attempts: 0, post_id: null, post_url: null, published_at: null, error: null },
      ],
    });
  });

  it('answers 404 for an unknown job and 403 for another user\'s job', async () => {
    const h = setup();
    const other = h.addUser('other@example.com');
    h.connect(['twitter'], other.user.id);
    const theirs = await (await h.call('POST', `${API}/content/publish`, { body: tweet(at(10)), headers: { 'X-API-Key': other.key } })).json() as { job_id: string };
    const missing = await h.call('GET', `${SCHEDULED}?job_id=job_doesnotexist0000000`);
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('not_found');
    for (const [method, path] of [
      ['GET', `${SCHEDULED}?job_id=${theirs.job_id}`],
      ['DELETE', `${SCHEDULED}?job_id=${theirs.job_id}`],
      ['POST', `${SCHEDULED}/approve?job_id=${theirs.job_id}`],
      ['POST', `${SCHEDULED}/reject?job_id=${theirs.job_id}`],
    ] as const) {
      const res = await h.call(method, path);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('forbidden');
    }
    const patch = await h.call('PATCH', `${SCHEDULED}?job_id=${theirs.job_id}`, { body: { scheduled_for: at(12) } });
    expect(patch.status).toBe(403);
  });

  it('answers 400 when PATCH, DELETE, approve or reject lack job_id', async () => {
    const h = setup();
    for (const [method, path] of [['PATCH', SCHEDULED], ['DELETE', SCHEDULED], ['POST', `${SCHEDULED}/approve`], ['POST', `${SCHEDULED}/reject`]] as const) {
      const res = await h.call(method, path, method === 'PATCH' ? { body: { scheduled_for: at(12) } } : {});
      expect(res.status).toBe(400);
      expect((await errorOf(res)).details?.[0]?.path).toBe('job_id');
    }
  });
});

describe('PATCH /content/scheduled', () => {
  it('recomputes offsets from the new base and keeps absolute times', async () => {
    const h = setup();
    const id = await publish(h, {
      caption: 'c',
      platforms: ['instagram', 'twitter'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: ['https://cdn.example.com/a.jpg'],
      scheduled_for: at(10),
      type_schedule: { story: '+0h', feed: '+1h', twitter: '2026-12-26T09:00:00Z' },
    });
    h.scheduler.changed = [];
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { scheduled_for: '2026-12-25T14:00:00Z' } });
    expect(res.status).toBe(200);
    const { post } = (await res.json()) as { post: Post };
    expect(post.scheduled_for).toBe('2026-12-25T14:00:00.000Z');
    expect(Object.fromEntries(post.targets.map((t) => [`${t.platform}.${t.type}`, t.scheduled_for]))).toEqual({
      'instagram.story': '2026-12-25T14:00:00.000Z',
      'instagram.feed': '2026-12-25T15:00:00.000Z',
      'twitter.tweet': '2026-12-26T09:00:00.000Z',
    });
    expect(h.scheduler.changed.flat()).toHaveLength(2);
  });

  it('moves only targets that have not started', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10), { platforms: ['twitter', 'threads'] }));
    h.db.prepare("UPDATE targets SET status = 'published' WHERE job_id = ? AND platform = 'twitter'").run(id);
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { scheduled_for: at(16) } });
    const { post } = (await res.json()) as { post: Post };
    const byPlatform = Object.fromEntries(post.targets.map((t) => [t.platform, t.scheduled_for]));
    expect(byPlatform).toEqual({ twitter: '2026-12-25T10:00:00.000Z', threads: '2026-12-25T16:00:00.000Z' });
  });

  it('answers 409 when nothing is left to move', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10)));
    h.db.prepare("UPDATE targets SET status = 'publishing' WHERE job_id = ?").run(id);
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { scheduled_for: at(16) } });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('conflict');
  });

  it('edits captions and type_schedule, and refuses a base in the past', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10)));
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { caption: 'new words', type_schedule: { tweet: '+45m' } } });
    const { post } = (await res.json()) as { post: Post };
    expect(post.caption).toBe('new words');
    expect(post.targets[0]!.scheduled_for).toBe('2026-12-25T10:45:00.000Z');
    const past = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { scheduled_for: '2026-12-24T10:00:00Z' } });
    expect(past.status).toBe(400);
    const empty = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: {} });
    expect(empty.status).toBe(400);
    const long = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { caption: 'z'.repeat(300) } });
    expect(long.status).toBe(400);
  });
});

describe('DELETE /content/scheduled', () => {
  it('cancels every target not started, and answers the same 200 when cancelled again', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10), { platforms: ['twitter', 'threads'] }));
    const res = await h.call('DELETE', `${SCHEDULED}?job_id=${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, job_id: id, status: 'cancelled' });
    expect(h.store.jobs.get(id)!.targets.map((t) => t.status)).toEqual(['cancelled', 'cancelled']);
    const again = await h.call('DELETE', `${SCHEDULED}?job_id=${id}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ success: true, job_id: id, status: 'cancelled' });
  });

  it('answers 409 for a job with nothing left to cancel', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10)));
    h.db.prepare("UPDATE targets SET status = 'published' WHERE job_id = ?").run(id);
    const res = await h.call('DELETE', `${SCHEDULED}?job_id=${id}`);
    expect(res.status).toBe(409);
  });

  it('leaves a target in flight alone and cancels the rest', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10), { platforms: ['twitter', 'threads'] }));
    h.db.prepare("UPDATE targets SET status = 'publishing' WHERE job_id = ? AND platform = 'twitter'").run(id);
    expect((await h.call('DELETE', `${SCHEDULED}?job_id=${id}`)).status).toBe(200);
    expect(h.store.jobs.get(id)!.targets.map((t) => `${t.platform}:${t.status}`)).toEqual(['twitter:publishing', 'threads:cancelled']);
  });
});

describe('approval', () => {
  it('approve moves pending targets to scheduled, due now when their time has passed', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(9, 30), { platforms: ['twitter', 'threads'], require_approval: true, type_schedule: { threads: '+2h' } }));
    await h.clock.advance(60 * 60_000); // 10:00: the twitter time (09:30) has passed
    h.scheduler.changed = [];
    const res = await h.call('POST', `${SCHEDULED}/approve?job_id=${id}`);
    expect(res.status).toBe(200);
    const { post } = (await res.json()) as { post: Post };
    expect(post.status).toBe('scheduled');
    expect(post.targets.map((t) => [t.platform, t.status, t.scheduled_for])).toEqual([
      ['twitter', 'scheduled', '2026-12-25T10:00:00.000Z'],
      ['threads', 'scheduled', '2026-12-25T11:30:00.000Z'],
    ]);
    expect(h.scheduler.changed.flat()).toHaveLength(2);
    const again = await h.call('POST', `${SCHEDULED}/approve?job_id=${id}`);
    expect(again.status).toBe(409);
  });

  it('reject cancels the pending targets; a job not pending is a 409', async () => {
    const h = setup();
    const id = await publish(h, tweet(at(10), { require_approval: true }));
    const res = await h.call('POST', `${SCHEDULED}/reject?job_id=${id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { post: Post }).post.status).toBe('cancelled');
    const plain = await publish(h, tweet(at(10)));
    const notPending = await h.call('POST', `${SCHEDULED}/reject?job_id=${plain}`);
    expect(notPending.status).toBe(409);
    expect((await errorOf(notPending)).code).toBe('conflict');
  });

  it('approves a held publish_now job so it goes out at once', async () => {
    const h = setup();
    h.store.users.setApprovalWorkflow(h.user.id, true);
    const id = await publish(h, { caption: 'now', platforms: ['twitter'], publish_now: true });
    await h.clock.advance(5 * 60_000);
    const res = await h.call('POST', `${SCHEDULED}/approve?job_id=${id}`);
    const { post } = (await res.json()) as { post: Post };
    expect(post.targets[0]).toMatchObject({ status: 'scheduled', scheduled_for: new Date(h.clock.now()).toISOString() });
  });
});
