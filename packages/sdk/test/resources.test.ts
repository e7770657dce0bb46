import { NotFoundError, SocialPub, WaitTimeoutError, type MediaStatus, type Post } from '@socialpub/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from './helpers/fake-clock';
import { useFakeServers } from './helpers/fake-client';
import { errorBody, isEvents, json, withoutEvents, type FakeHandler } from './helpers/fake-server';
import { completed, post, processing, publishResult } from './helpers/fixtures';

const { start, client: setup } = useFakeServers();
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration', () => {
  it('reads SOCIALPUB_BASE_URL and SOCIALPUB_API_KEY and sends the key as a Bearer token', async () => {
    const server = await start((_q, res) => json(res, 200, { success: true, valid: true, user: { id: '0b6f6a8e-4a39-4a57-9c57-2a6d0f7c1e11', email: 'a@example.com' } }));
    vi.stubEnv('SOCIALPUB_BASE_URL', `${server.url}/`);
    vi.stubEnv('SOCIALPUB_API_KEY', 'sp_env_key');
    const client = new SocialPub();
    expect(client.baseUrl).toBe(server.url);
    const answer = await client.auth.validate();
    expect(answer.user.email).toBe('a@example.com');
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url.pathname).toBe('/api/agents/v1/auth/validate');
    expect(req?.headers.authorization).toBe('Bearer sp_env_key');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['user-agent']).toMatch(/^socialpub-sdk\//);
  });

  it('prefers options over the environment', async () => {
    vi.stubEnv('SOCIALPUB_BASE_URL', 'http://127.0.0.1:1');
    const client = new SocialPub({ baseUrl: 'http://127.0.0.1:2/' });
    expect(client.baseUrl).toBe('http://127.0.0.1:2');
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new SocialPub({ baseUrl: '127.0.0.1:8787' })).toThrow(/baseUrl must be an http\(s\) URL/);
  });
});

describe('routes', () => {
  it('maps every method to its route, query and body', async () => {
    const { client, requests } = await setup((req, res) => {
      const route = `${req.method} ${req.url.pathname}`;
      const jobId = req.url.searchParams.get('job_id') ?? 'job_1';
      switch (route) {
        case 'POST /api/agents/v1/content/publish':
          return json(res, 200, publishResult());
        case 'POST /api/agents/v1/content/validate':
          return json(res, 200, { success: true, valid: true, targets: [{ platform: 'twitter', type: 'tweet', scheduled_for: '2026-12-25T10:00:00.000Z' }], errors: [] });
        case 'GET /api/agents/v1/content/scheduled':
          return req.url.searchParams.has('job_id') ? json(res, 200, { success: true, post: post(jobId) }) : json(res, 200, { success: true, posts: [post('job_1')], next_cursor: null });
        case 'PATCH /api/agents/v1/content/scheduled':
        case 'POST /api/agents/v1/content/scheduled/approve':
        case 'POST /api/agents/v1/content/scheduled/reject':
          return json(res, 200, { success: true, message: 'ok', post: post(jobId) });
        case 'DELETE /api/agents/v1/content/scheduled':
          return json(res, 200, { success: true, message: 'Cancelled', job_id: jobId, status: 'cancelled' });
        case 'POST /api/agents/v1/media/prepare':
          return json(res, 200, { success: true, task_id: 'task_1', message: 'Preparing' });
        case 'GET /api/agents/v1/media/status/task_1':
          return json(res, 200, completed('task_1'));
        case 'GET /api/agents/v1/platforms':
          return json(res, 200, { success: true, platforms: [] });
        default:
          return json(res, 404, errorBody('not_found', route));
      }
    });

    await client.content.publish({ caption: 'c', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { tweet: '+1h' } });
    await client.content.validate({ caption: 'c', platforms: ['twitter'], publish_now: true });
    await client.scheduled.list({ status: 'scheduled', limit: 10 });
    await client.scheduled.get('job_2');
    await client.scheduled.update('job_3', { scheduled_for: '2026-12-25T12:00:00Z' });
    await client.scheduled.cancel('job_4');
    await client.scheduled.approve('job_5');
    await client.scheduled.reject('job_6');
    await client.media.prepare({ urls: ['https://example.com/a.jpg'] });
    await client.media.status('task_1');
    await client.platforms.list();

    const seen = requests.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`);
    expect(seen).toEqual([
      'POST /api/agents/v1/content/publish',
      'POST /api/agents/v1/content/validate',
      'GET /api/agents/v1/content/scheduled?status=scheduled&limit=10',
      'GET /api/agents/v1/content/scheduled?job_id=job_2',
      'PATCH /api/agents/v1/content/scheduled?job_id=job_3',
      'DELETE /api/agents/v1/content/scheduled?job_id=job_4',
      'POST /api/agents/v1/content/scheduled/approve?job_id=job_5',
      'POST /api/agents/v1/content/scheduled/reject?job_id=job_6',
      'POST /api/agents/v1/media/prepare',
      'GET /api/agents/v1/media/status/task_1',
      'GET /api/agents/v1/platforms',
    ]);
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ caption: 'c', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { tweet: '+1h' } });
    expect(JSON.parse(requests[4]?.body ?? '')).toEqual({ scheduled_for: '2026-12-25T12:00:00Z' });
    expect(JSON.parse(requests[8]?.body ?? '')).toEqual({ urls: ['https://example.com/a.jpg'] });
    expect(requests[5]?.body).toBe('');
    // Only the two POSTs the daemon deduplicates carry a key.
    expect(requests.filter((r) => r.headers['idempotency-key'] !== undefined).map((r) => r.url.pathname)).toEqual(['/api/agents/v1/content/publish', '/api/agents/v1/media/prepare']);
  });

  it('escapes ids placed in the path', async () => {
    const { client, requests } = await setup((_q, res) => json(res, 404, errorBody('not_found', 'no such task')));
    await expect(client.media.status('../auth/validate', { maxRetries: 0 })).rejects.toMatchObject({ status: 404 });
    expect(requests[0]?.url.pathname).toBe('/api/agents/v1/media/status/..%2Fauth%2Fvalidate');
  });

  it('calls /healthz without a key and returns an unhealthy 503 body instead of throwing', async () => {
    const health = { status: 'unhealthy', version: '0.1.0', time: '2026-12-25T10:00:00.000Z', uptime_s: 5, scheduler: { running: true, last_tick: null, stalled: true, wheel_size: 0 }, targets: { pending_approval: 0, scheduled: 1, publishing: 0, published: 2, failed: 0, cancelled: 0, needs_review: 0 } };
    const server = await start((_q, res) => json(res, 503, health));
    const client = new SocialPub({ baseUrl: server.url, apiKey: '', maxRetries: 0, clock: new FakeClock() });
    expect(await client.health()).toEqual(health);
    expect(server.requests[0]?.url.pathname).toBe('/healthz');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('scheduled.list pagination', () => {
  const pages: Record<string, { posts: Post[]; next_cursor: string | null }> = {
    '': { posts: [post('job_1'), post('job_2')], next_cursor: 'c2' },
    c2: { posts: [post('job_3'), post('job_4')], next_cursor: 'c3' },
    c3: { posts: [post('job_5')], next_cursor: null },
  };
  const paged: FakeHandler = (req, res) => json(res, 200, { success: true, ...pages[req.url.searchParams.get('cursor') ?? ''] });

  it('resolves to the first page when awaited', async () => {
    const { client, requests } = await setup(paged);
    const page = await client.scheduled.list({ limit: 2 });
    expect(page.posts.map((p) => p.job_id)).toEqual(['job_1', 'job_2']);
    expect(page.next_cursor).toBe('c2');
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.posts.map((p) => p.job_id)).toEqual(['job_3', 'job_4']);
    expect(requests.map((r) => r.url.search)).toEqual(['?limit=2', '?limit=2&cursor=c2']);
  });

  it('iterates over every post of every page with for await', async () => {
    const { client, requests } = await setup(paged);
    const ids: string[] = [];
    for await (const p of client.scheduled.list({ status: 'scheduled', limit: 2 })) ids.push(p.job_id);
    expect(ids).toEqual(['job_1', 'job_2', 'job_3', 'job_4', 'job_5']);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.url.searchParams.get('status')).toBe('scheduled');
  });

  it('stops fetching when the loop breaks early', async () => {
    const { client, requests } = await setup(paged);
    for await (const p of client.scheduled.list({ limit: 2 })) {
      if (p.job_id === 'job_1') break;
    }
    expect(requests).toHaveLength(1);
  });

  it('sends nothing until the list is awaited or iterated, and only once', async () => {
    const { client, requests } = await setup(paged);
    const list = client.scheduled.list();
    expect(requests).toHaveLength(0);
    const a = await list;
    const b = await list;
    expect(a).toBe(b);
    expect(requests).toHaveLength(1);
  });
});

// Against a daemon without GET /events (a 404, as an unknown route answers) the waits poll.
describe('waiting helpers', () => {
  it('media.waitUntilReady polls with growing waits until completed, reporting progress', async () => {
    const { client, clock } = await setup(withoutEvents((_q, res, i) => json(res, 200, i < 3 ? processing('task_1', Math.min(i, 1)) : completed('task_1'))));
    const seen: MediaStatus[] = [];
    const done = await client.media.waitUntilReady('task_1', { onProgress: (s) => seen.push(s) });
    expect(done.status).toBe('completed');
    expect(done.status === 'completed' && done.files[0]?.prepared_url).toBe('http://127.0.0.1:8787/media/abc/a.jpg');
    expect(seen.map((s) => s.status)).toEqual(['processing', 'processing', 'processing', 'completed']);
    expect(clock.sleeps).toEqual([1000, 1500, 2250]);
  });

  it('media.waitUntilReady resolves with a failed task rather than throwing', async () => {
    const failed = { success: true, task_id: 'task_2', status: 'failed', progress: { total: 1, completed: 0, failed: 1 }, error: { code: 'all_failed', message: 'No file could be prepared' }, files: [], failed: [{ original_url: 'http://10.0.0.1/a.jpg', error: { code: 'private_address', message: 'private' } }] };
    const { client } = await setup(withoutEvents((_q, res) => json(res, 200, failed)));
    const done = await client.media.waitUntilReady('task_2');
    expect(done).toEqual(failed);
  });

  it('caps the poll interval at maxInterval', async () => {
    const { client, clock } = await setup(withoutEvents((_q, res, i) => json(res, 200, { success: true, post: post('job_1', i < 5 ? 'scheduled' : 'published') })));
    const done = await client.scheduled.waitUntilDone('job_1', { interval: 100, maxInterval: 200 });
    expect(done.status).toBe('published');
    expect(clock.sleeps).toEqual([100, 150, 200, 200, 200]);
  });

  it('scheduled.waitUntilDone stops on every settled job status', async () => {
    for (const status of ['partially_published', 'failed', 'cancelled', 'needs_review'] as const) {
      const { client } = await setup(withoutEvents((_q, res, i) => json(res, 200, { success: true, post: post('job_1', i === 0 ? 'publishing' : status) })));
      expect((await client.scheduled.waitUntilDone('job_1')).status).toBe(status);
    }
  });

  it('throws WaitTimeoutError with the last state after maxWait', async () => {
    const { client, clock } = await setup(withoutEvents((_q, res) => json(res, 200, { success: true, post: post('job_1', 'pending_approval') })));
    const error = (await client.scheduled.waitUntilDone('job_1', { maxWait: 5_000 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error.last as Post).status).toBe('pending_approval');
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5_000);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const { client, clock, requests } = await setup(withoutEvents((_q, res) => json(res, 200, processing('task_1', 0))));
    clock.onSleep = () => {
      if (clock.sleeps.length === 2) controller.abort();
    };
    await expect(client.media.waitUntilReady('task_1', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests.filter((r) => !isEvents(r))).toHaveLength(2);
  });

  it('asks for /events once, then polls: a 404 there is a daemon without the event stream', async () => {
    const { client, requests } = await setup(withoutEvents((_q, res, i) => json(res, 200, { success: true, post: post('job_1', i < 2 ? 'scheduled' : 'published') })));
    expect((await client.scheduled.waitUntilDone('job_1')).status).toBe('published');
    expect(requests.map((r) => `${r.url.pathname}${r.url.search}`)).toEqual([
      '/api/agents/v1/events?job_id=job_1&with_post=true',
      '/api/agents/v1/content/scheduled?job_id=job_1',
      '/api/agents/v1/content/scheduled?job_id=job_1',
      '/api/agents/v1/content/scheduled?job_id=job_1',
    ]);
    expect(requests[0]?.headers.accept).toBe('text/event-stream');
  });

  // A 200 that is not text/event-stream (an older daemon's catch-all, a proxy's page) holds no
  // events: read as a stream, it ended at once and was opened again, without end.
  it('polls when /events answers something other than an event stream, asking for it once', { timeout: 5_000 }, async () => {
    const { client, clock, requests } = await setup((req, res) => {
      const status = requests.filter((r) => !isEvents(r)).length < 3 ? 'processing' : 'completed';
      json(res, 200, status === 'processing' ? processing('task_1', 0) : completed('task_1'));
    });
    const done = await client.media.waitUntilReady('task_1');
    expect(done.status).toBe('completed');
    expect(requests.filter(isEvents)).toHaveLength(1);
    expect(requests.filter((r) => !isEvents(r))).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1500]);
  });

  it('client.events.stream throws NotFoundError (not_an_event_stream) on an answer that is not an event stream', { timeout: 5_000 }, async () => {
    const { client, requests } = await setup((_q, res) => json(res, 200, { success: true }));
    const error = await (async () => {
      for await (const event of client.events.stream()) void event;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 200, code: 'not_an_event_stream', message: expect.stringContaining('application/json, not text/event-stream') });
    expect(requests).toHaveLength(1);
  });
});
