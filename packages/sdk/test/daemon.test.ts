import { ManualClock, openDatabase } from '@socialpub/daemon';
import {
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  SocialPub,
  WaitTimeoutError,
  type PublishParams,
} from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventLoopClock, FakeClock } from './helpers/fake-clock';
import { startProxy, type Proxy } from './helpers/proxy';
import { startRealDaemon, type RealDaemon } from './helpers/real-daemon';

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const later = (caption = 'Scheduled from the SDK tests'): PublishParams => ({ caption, platforms: ['twitter'], scheduled_for: inHours(24) });

describe('the SDK against the real daemon', () => {
  let d: RealDaemon;
  let client: SocialPub;

  beforeAll(async () => {
    // Room in the scheduled-content class for polls that come at every turn of the event loop.
    d = await startRealDaemon({ connect: ['twitter', 'threads'], rateLimits: { scheduled: { limit: 100_000 } } });
    client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: new FakeClock() });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('validates the key and names its user', async () => {
    const answer = await client.auth.validate();
    expect(answer.valid).toBe(true);
    expect(answer.user.email).toBe(d.email);
  });

  it('reports health without a key', async () => {
    const health = await new SocialPub({ baseUrl: d.url, apiKey: '' }).health();
    expect(health.status).toBe('ok');
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists platforms with the sandbox connections', async () => {
    const { platforms } = await client.platforms.list();
    const byName = Object.fromEntries(platforms.map((p) => [p.platform, p]));
    expect(byName.twitter?.connection?.mode).toBe('sandbox');
    expect(byName.threads?.connection?.mode).toBe('sandbox');
    expect(byName.instagram?.connection).toBeNull();
    expect(byName.twitter?.default_type).toBe('tweet');
  });

  it('sets, reads and clears the sandbox faults, and a refused body is a BadRequestError naming the field', async () => {
    const faults = { all: { latency_ms: { min: 5, max: 10 } }, threads: { rate_limited: 0.5 } };
    expect(await client.sandbox.setFaults(faults)).toEqual({ success: true, faults, global: {} });
    expect((await client.sandbox.faults()).faults).toEqual(faults);
    const refused = await client.sandbox.setFaults({ twitter: { reset: 2 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(JSON.stringify(refused)).toContain('reset must be a share of calls from 0 to 1');
    expect(await client.sandbox.clearFaults()).toEqual({ success: true, faults: {}, global: {} });
    expect((await client.sandbox.faults()).faults).toEqual({});
  });

  it('validates a request without storing it, with the daemon’s verdict', async () => {
    const ok = await client.content.validate({ caption: 'fits', platforms: ['twitter'], publish_now: true });
    expect(ok.valid).toBe(true);
    expect(ok.targets.map((t) => `${t.platform}.${t.type}`)).toEqual(['twitter.tweet']);
    const tooLong = await client.content.validate({ caption: 'x'.repeat(400), platforms: ['twitter'], publish_now: true });
    expect(tooLong.valid).toBe(false);
    expect(tooLong.errors.length).toBeGreaterThan(0);
  });

  it('publishes, gets, lists, re-times and cancels a scheduled post', async () => {
    const base = inHours(48);
    const job = await client.content.publish({ caption: 'Round trip', platforms: ['twitter', 'threads'], scheduled_for: base, type_schedule: { threads: '+1h' } });
    expect(job.status).toBe('scheduled');
    expect(job.scheduled_for).toBe(base);
    expect(job.targets.map((t) => [t.platform, t.scheduled_for])).toEqual([
      ['twitter', base],
      ['threads', new Date(Date.parse(base) + 3_600_000).toISOString()],
    ]);

    const { post } = await client.scheduled.get(job.job_id);
    expect(post.caption).toBe('Round trip');

    const page = await client.scheduled.list({ status: 'scheduled' });
    expect(page.posts.map((p) => p.job_id)).toContain(job.job_id);

    const moved = inHours(72);
    const updated = await client.scheduled.update(job.job_id, { scheduled_for: moved });
    expect(updated.post.scheduled_for).toBe(moved);
    expect(updated.post.targets.find((t) => t.platform === 'threads')?.scheduled_for).toBe(new Date(Date.parse(moved) + 3_600_000).toISOString());

    const cancelled = await client.scheduled.cancel(job.job_id);
    expect(cancelled).toMatchObject({ job_id: job.job_id, status: 'cancelled' });
    expect((await client.scheduled.cancel(job.job_id)).status).toBe('cancelled');
    expect((await client.scheduled.get(job.job_id)).post.status).toBe('cancelled');
  });

  it('walks every page of the list with for await', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.content.publish(later(`page ${i}`))).job_id);
    const seen: string[] = [];
    for await (const post of client.scheduled.list({ limit: 2 })) seen.push(post.job_id);
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('approves and rejects posts held for approval', async () => {
    const a = await client.content.publish({ ...later('needs a yes'), require_approval: true });
    expect(a.status).toBe('pending_approval');
    const approved = await client.scheduled.approve(a.job_id);
    expect(approved.post.status).toBe('scheduled');

    const b = await client.content.publish({ ...later('needs a no'), require_approval: true });
    const rejected = await client.scheduled.reject(b.job_id);
    expect(rejected.post.status).toBe('cancelled');
  });

  describe('every error class from a real answer', () => {
    it('BadRequestError (400) with field details', async () => {
      const error = (await client.content.publish({ platforms: ['twitter'], publish_now: true } as unknown as PublishParams).catch((e: unknown) => e)) as BadRequestError;
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(error.details?.map((x) => x.path)).toContain('caption');
      expect(error.requestId).toMatch(/^req_/);
    });

    it('AuthenticationError (401) for a wrong key', async () => {
      const bad = new SocialPub({ baseUrl: d.url, apiKey: 'sp_nope_nope', clock: new FakeClock() });
      await expect(bad.auth.validate()).rejects.toMatchObject({ constructor: AuthenticationError, status: 401, code: 'unauthorized' });
    });

    it('PermissionDeniedError (403) for a platform without a connection', async () => {
      const error = (await client.content.publish({ caption: 'c', platforms: ['facebook'], publish_now: true }).catch((e: unknown) => e)) as PermissionDeniedError;
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error.status).toBe(403);
      expect(['platform_not_connected', 'facebook_page_not_selected']).toContain(error.code);
    });

    it('PermissionDeniedError (403) for another user’s job', async () => {
      const job = await client.content.publish(later('mine'));
      const other = d.admin.createKey({ email: 'someone-else@example.com' });
      const stranger = new SocialPub({ baseUrl: d.url, apiKey: other.api_key, clock: new FakeClock() });
      await expect(stranger.scheduled.get(job.job_id)).rejects.toMatchObject({ constructor: PermissionDeniedError, code: 'forbidden' });
    });

    it('NotFoundError (404) for an unknown job', async () => {
      await expect(client.scheduled.get('job_doesnotexist')).rejects.toMatchObject({ constructor: NotFoundError, status: 404, code: 'not_found' });
    });

    it('ConflictError (409) for a job with nothing left to change, and for a reused idempotency key', async () => {
      const job = await client.content.publish(later('cancel me'));
      await client.scheduled.cancel(job.job_id);
      await expect(client.scheduled.update(job.job_id, { scheduled_for: inHours(30) })).rejects.toMatchObject({ constructor: ConflictError, code: 'conflict' });
      await expect(client.scheduled.approve(job.job_id)).rejects.toBeInstanceOf(ConflictError);

      await client.content.publish(later('first body'), { idempotencyKey: 'reused-key-1' });
      await expect(client.content.publish(later('second body'), { idempotencyKey: 'reused-key-1' })).rejects.toMatchObject({
        constructor: ConflictError,
        code: 'idempotency_conflict',
      });
    });

    it('PayloadTooLargeError (413) for a body over 10 MB', async () => {
      const error = await client.content.validate({ caption: 'x'.repeat(11 * 1024 * 1024), platforms: ['twitter'], publish_now: true }, { maxRetries: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect((error as PayloadTooLargeError).code).toBe('payload_too_large');
    });
  });

  describe('through a misbehaving proxy', () => {
    let proxy: Proxy | undefined;
    afterAll(async () => {
      await proxy?.close();
    });

    it('retries a publish whose answer was lost with the same idempotency key, creating one job', async () => {
      let dropped = false;
      proxy = await startProxy(d.url, (x) => {
        if (x.method === 'POST' && x.path.endsWith('/content/publish') && !dropped) {
          dropped = true;
          return 'drop-response';
        }
        return 'forward';
      });
      const clock = new FakeClock();
      const viaProxy = new SocialPub({ baseUrl: proxy.url, apiKey: d.apiKey, clock });
      const caption = `exactly once ${Date.now()}`;
      const result = await viaProxy.content.publish(later(caption));

      const [first, second] = proxy.exchanges;
      expect(proxy.exchanges).toHaveLength(2);
      expect(first?.response?.status).toBe(200);
      expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
      expect(second?.response?.headers['idempotent-replayed']).toBe('true');
      expect(JSON.parse(first?.response?.body ?? '{}').job_id).toBe(result.job_id);
      expect(clock.sleeps).toHaveLength(1);

      const all = [];
      for await (const post of client.scheduled.list({ limit: 200 })) if (post.caption === caption) all.push(post.job_id);
      expect(all).toEqual([result.job_id]);
      await proxy.close();
      proxy = undefined;
    });

    it('times out a request the daemon never answers with APIConnectionTimeoutError', async () => {
      proxy = await startProxy(d.url, () => 'hold');
      const viaProxy = new SocialPub({ baseUrl: proxy.url, apiKey: d.apiKey, timeout: 100, maxRetries: 0 });
      const error = await viaProxy.scheduled.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(proxy.exchanges).toHaveLength(1);
      await proxy.close();
      proxy = undefined;
    });

    it('aborts a request in flight with the caller’s signal', async () => {
      const controller = new AbortController();
      proxy = await startProxy(d.url, () => {
        controller.abort();
        return 'hold';
      });
      const viaProxy = new SocialPub({ baseUrl: proxy.url, apiKey: d.apiKey });
      const error = await viaProxy.content.publish(later('never sent'), { signal: controller.signal }).catch((e: unknown) => e);
      expect((error as Error).name).toBe('AbortError');
      expect(error).toBe(controller.signal.reason);
      await proxy.close();
      proxy = undefined;
    });
  });

  it('publishes now through the sandbox and waits until every target is published', async () => {
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: eventLoopClock() });
    const job = await waiter.content.publish({ caption: 'Now, from the SDK tests', platforms: ['twitter', 'threads'], publish_now: true });
    expect(job.scheduled_for).toBeNull();
    const states: string[] = [];
    const post = await waiter.scheduled.waitUntilDone(job.job_id, { onProgress: (p) => states.push(p.status) });
    expect(post.status).toBe('published');
    expect(states.at(-1)).toBe('published');
    for (const t of post.targets) {
      expect(t.status).toBe('published');
      expect(t.post_id).not.toBeNull();
      expect(t.post_url).toMatch(/^https?:\/\//);
    }
  });

  // A client's clock paces retries and polls; a test's clock passes those at once. The
  // deadline of a wait on the events is real time: taken from such a clock, it passed before
  // the stream opened (WaitTimeoutError after a few ms, the examples' publish-now failing so).
  it('follows a job to its end with maxWait on a clock that passes every wait at once', async () => {
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: eventLoopClock() });
    const job = await waiter.content.publish({ caption: 'Now, with a maxWait', platforms: ['twitter', 'threads'], publish_now: true });
    const post = await waiter.scheduled.waitUntilDone(job.job_id, { maxWait: 60_000 });
    expect(post.status).toBe('published');
    expect(post.targets.map((t) => t.status)).toEqual(['published', 'published']);
  });

  it('gives up after maxWait of real time while following the events, with the post read as last', async () => {
    const job = await client.content.publish(later('never within the wait'));
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: new FakeClock() });
    const started = performance.now();
    const error = await waiter.scheduled.waitUntilDone(job.job_id, { maxWait: 300 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ message: `Job ${job.job_id} did not finish within 300 ms`, last: { job_id: job.job_id, status: 'scheduled' } });
  });

  it('takes a published post down with scheduled.unpublish, idempotently, and refuses a job with nothing published', async () => {
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: eventLoopClock() });
    const job = await waiter.content.publish({ caption: 'Up, then down, from the SDK tests', platforms: ['twitter', 'threads'], publish_now: true });
    const published = await waiter.scheduled.waitUntilDone(job.job_id);
    expect(published.status).toBe('published');

    const down = await client.scheduled.unpublish(job.job_id);
    expect(down.changed).toBe(true);
    expect(down.targets.map((t) => [t.platform, t.result, t.status]).sort()).toEqual([
      ['threads', 'removed', 'removed'],
      ['twitter', 'removed', 'removed'],
    ]);
    expect(down.post.status).toBe('removed');
    expect(down.post.targets.every((t) => typeof t.removed_at === 'string')).toBe(true);

    const again = await client.scheduled.unpublish(job.job_id);
    expect(again.changed).toBe(false);
    expect(again.targets.map((t) => t.result)).toEqual(['already_removed', 'already_removed']);
    expect((await client.scheduled.list({ status: 'removed' })).posts.map((p) => p.job_id)).toContain(job.job_id);

    const notYet = await client.content.publish(later('not published yet'));
    await expect(client.scheduled.unpublish(notYet.job_id)).rejects.toMatchObject({ constructor: ConflictError, status: 409, code: 'conflict' });
  });

  it("reads a published post's figures with analytics.refresh and answers the same with analytics.posts; nothing published is a ConflictError", async () => {
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: eventLoopClock() });
    const job = await waiter.content.publish({ caption: 'How did it do, from the SDK tests', platforms: ['twitter'], publish_now: true });
    expect((await waiter.scheduled.waitUntilDone(job.job_id)).status).toBe('published');

    const before = await client.analytics.posts(job.job_id);
    expect(before.targets.map((t) => [t.platform, t.collected_at, t.history.length])).toEqual([['twitter', null, 0]]);
    // Publishing goes first: right after it the publisher may still hold the connection (publishing_first); ask again.
    const read = await vi.waitFor(
      async () => {
        const r = await client.analytics.refresh(job.job_id);
        expect(r.targets[0]!.problem).toBeNull();
        return r;
      },
      { timeout: 10_000, interval: 100 },
    );
    const t = read.targets[0]!;
    expect(Object.keys(t.platform_metrics).sort()).toEqual(['bookmark_count', 'impression_count', 'like_count', 'quote_count', 'reply_count', 'retweet_count', 'url_link_clicks', 'user_profile_clicks']);
    expect(t.metrics.impressions).toBe(t.platform_metrics.impression_count);
    expect(t.history.at(-1)).toEqual({ collected_at: t.collected_at, metrics: t.metrics, platform_metrics: t.platform_metrics });
    expect(await client.analytics.posts(job.job_id)).toEqual(read);
    const summary = await client.analytics.summary({ platform: 'twitter' });
    expect(summary.top_posts.find((p) => p.job_id === job.job_id)?.metrics).toEqual(t.metrics);
    await expect(client.analytics.summary({ from: '2026-12-02T00:00:00Z', to: '2026-12-01T00:00:00Z' })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    // The same reading as CSV text (GET /analytics/export.csv).
    const csv = (await client.analytics.exportCsv({ job_id: job.job_id })).trimEnd().split('\r\n');
    expect(csv[0]).toBe('job_id,platform,account,type,post_id,published_at,collected_at,impressions,views,likes,comments,shares,saves,clicks,platform_metrics');
    expect(csv.slice(1).map((r) => r.split(',').slice(0, 8))).toEqual(t.history.map((h) => [job.job_id, 'twitter', t.account, t.type, t.post_id!, t.published_at!, h.collected_at, String(h.metrics.impressions)]));

    const notYet = await client.content.publish(later('no figures yet'));
    await expect(client.analytics.refresh(notYet.job_id)).rejects.toMatchObject({ constructor: ConflictError, status: 409, code: 'conflict' });
  });

  it('stops waitUntilDone when its signal aborts', async () => {
    const job = await client.content.publish(later('far ahead'));
    const controller = new AbortController();
    const waiter = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: new FakeClock() });
    // It follows the job's events: abort once it has read the post (the stream is open).
    const waiting = waiter.scheduled.waitUntilDone(job.job_id, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('rate limits of the real daemon', () => {
  let d: RealDaemon;
  const daemonClock = new ManualClock(Date.now());
  beforeAll(async () => {
    d = await startRealDaemon({ clock: daemonClock, rateLimits: { auth: { limit: 1, windowMs: 60_000 } } });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('answers RateLimitError with retryAfter when retries are off', async () => {
    const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, maxRetries: 0 });
    await client.auth.validate();
    const error = (await client.auth.validate().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
  });

  it('waits the daemon’s Retry-After and then succeeds', async () => {
    await daemonClock.advance(61_000);
    const clock = new FakeClock();
    // The SDK's wait moves the daemon's clock by the same amount: no real time passes.
    clock.onSleep = (ms) => daemonClock.advance(ms);
    const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock });
    await client.auth.validate();
    const answer = await client.auth.validate();
    expect(answer.valid).toBe(true);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(0);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(60_000);
    expect((clock.sleeps[0] ?? 0) % 1000).toBe(0);
  });
});

describe('a daemon failing inside', () => {
  it('surfaces its 500 as InternalServerError after retrying the GET', async () => {
    const d = await startRealDaemon();
    try {
      // Pull a table from under the running daemon: every authenticated request now fails inside.
      const db = openDatabase(`${d.dataDir}/socialpub.db`);
      db.exec('ALTER TABLE rate_windows RENAME TO rate_windows_gone');
      db.close();
      const clock = new FakeClock();
      const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock, maxRetries: 2 });
      const error = (await client.scheduled.list().catch((e: unknown) => e)) as InternalServerError;
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 500, code: 'internal' });
      expect(error.requestId).toMatch(/^req_/);
      expect(clock.sleeps).toHaveLength(2);
    } finally {
      await d.close();
    }
  });
});
