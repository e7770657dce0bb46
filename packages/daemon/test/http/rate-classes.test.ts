import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, resolveConfig } from '../../src/config';
import type { AppEnv } from '../../src/http/env';
import { declaredRateClass } from '../../src/http/middleware/rate-limit';
import { createMediaRoutes } from '../../src/http/routes/media';
import type { MediaService } from '../../src/media/media-service';
import { API, errorOf, harness, type HarnessOptions } from './harness';

/**
 * The media routes over a stand-in for the media service: what the limiter needs is that
 * POST /media/prepare answers 200, so the class can be counted to its end.
 */
function mediaRoutes(): Hono<AppEnv> {
  let n = 0;
  const media = {
    maxBytes: 1024,
    checkUrls: () => [],
    prepare: () => ({ taskId: `task_${++n}` }),
    status: () => undefined,
  } as unknown as MediaService;
  return createMediaRoutes({ media });
}

const withMedia = (opts: HarnessOptions = {}) => harness({ ...opts, deps: { mediaRoutes: mediaRoutes(), ...opts.deps } });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('rate classes, declared next to each route', () => {
  it('gives every endpoint the class it declares: the interface its own four, every other endpoint one suited to it', () => {
    const h = withMedia();
    const declared: Record<string, string> = {};
    for (const r of h.app.routes) {
      const cls = declaredRateClass(r.handler);
      if (cls) declared[`${r.method} ${r.path.slice(API.length)}`] = cls;
    }
    expect(declared).toEqual({
      // The interface's endpoints, in the interface's classes.
      'POST /auth/validate': 'auth',
      'POST /content/publish': 'publish',
      'GET /content/scheduled': 'scheduled',
      'PATCH /content/scheduled': 'scheduled',
      'DELETE /content/scheduled': 'scheduled',
      'POST /media/prepare': 'media',
      'GET /media/status/:task_id': 'media_status',
      'GET /media/library': 'media_status',
      // Everything else: its own.
      'POST /content/validate': 'validate',
      'POST /content/scheduled/approve': 'review',
      'POST /content/scheduled/reject': 'review',
      'POST /content/scheduled/request-changes': 'review',
      'POST /content/scheduled/comments': 'review',
      'GET /content/scheduled/comments': 'review',
      'POST /content/scheduled/unpublish': 'unpublish',
      'GET /analytics/posts': 'analytics',
      'GET /analytics/summary': 'analytics',
      'GET /analytics/export.csv': 'analytics',
      'POST /analytics/refresh': 'analytics_refresh',
      'GET /inbox': 'inbox',
      'POST /inbox/:id/hide': 'inbox',
      'POST /inbox/:id/read': 'inbox',
      'POST /inbox/:id/reply': 'inbox_reply',
      'POST /inbox/refresh': 'inbox_reply',
      'POST /inbox/replies/:id/approve': 'review',
      'POST /inbox/replies/:id/reject': 'review',
      'DELETE /inbox/replies/:id': 'inbox_reply',
      'POST /media/upload': 'upload',
      'GET /platforms': 'platforms',
      'GET /platforms/tiktok/creator-info': 'creator_info',
      'GET /settings': 'settings',
      'PATCH /settings': 'settings',
      'GET /queue': 'queue',
      'PUT /queue': 'queue',
      'GET /queue/next': 'queue',
      'GET /content/series': 'series',
      'DELETE /content/series': 'series',
      'GET /events': 'events',
      'GET /webhooks': 'webhooks',
      'POST /webhooks': 'webhooks',
      'GET /webhooks/:id': 'webhooks',
      'PATCH /webhooks/:id': 'webhooks',
      'DELETE /webhooks/:id': 'webhooks',
      'POST /webhooks/:id/test': 'webhook_send',
      'GET /webhooks/:id/deliveries': 'webhooks',
      'POST /webhooks/:id/deliveries/:delivery_id/redeliver': 'webhook_send',
      'GET /sandbox/posts': 'sandbox',
      'GET /sandbox/faults': 'sandbox',
      'PUT /sandbox/faults': 'sandbox',
      'DELETE /sandbox/faults': 'sandbox',
      // The dashboard's account routes (keys, connections, review links): one class of their own.
      'GET /keys': 'account',
      'POST /keys': 'account',
      'DELETE /keys/:id': 'account',
      'POST /keys/:id/rotate': 'account',
      'GET /connections': 'account',
      'POST /connections/sandbox': 'account',
      'DELETE /connections/:id': 'account',
      'PATCH /connections/:id': 'account',
      'POST /connections/:platform/authorize': 'account',
      'GET /connections/pending/:id': 'account',
      'POST /connections/pending/:id/choose': 'account',
      'GET /review-links': 'account',
      'POST /review-links': 'account',
      'DELETE /review-links/:id': 'account',
      'GET /drafts': 'account',
      'POST /drafts': 'account',
      'PUT /drafts/:id': 'account',
      'DELETE /drafts/:id': 'account',
    });
  });

  it('refuses to build an app with an API route that declares no class', () => {
    const undeclared = new Hono<AppEnv>().get('/thumbnails', (c) => c.json({ success: true }, 200));
    expect(() => harness({ deps: { mediaRoutes: undeclared } })).toThrow('routes without a rate class (put rateClass(...) first among their handlers): GET /api/agents/v1/media/thumbnails');
  });

  it('answers 300 calls in a row to each read outside the interface with no 429, and leaves the scheduled-content allowance whole', async () => {
    const h = harness();
    h.connect(['twitter']);
    const reads = ['/platforms', '/settings', '/queue', '/content/series', '/webhooks', '/sandbox/posts', '/events'];
    for (const path of reads) {
      const statuses = new Map<number, number>();
      for (let i = 0; i < 300; i++) {
        const res = await h.call('GET', `${API}${path}`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        // GET /events is a stream: its status is the answer; end it.
        await res.body?.cancel();
      }
      expect(Object.fromEntries(statuses), path).toEqual({ 200: 300 });
    }
    const scheduled = await h.call('GET', `${API}/content/scheduled`);
    expect(scheduled.status).toBe(200);
    expect(scheduled.headers.get('RateLimit-Limit')).toBe('100');
    expect(scheduled.headers.get('RateLimit-Remaining')).toBe('99');
  });

  it('gives a page polling all day room: each resource 600 a minute, counted apart', async () => {
    const h = harness();
    const first = await h.call('GET', `${API}/platforms`);
    expect(first.headers.get('RateLimit-Limit')).toBe('600');
    expect(first.headers.get('RateLimit-Reset')).toBe('60');
    for (const cls of ['platforms', 'settings', 'queue', 'series', 'events', 'webhooks', 'sandbox', 'media_status'] as const) expect(DEFAULT_RATE_LIMITS[cls]).toEqual({ limit: 600, windowMs: 60_000 });
    // A page polling five endpoints every second through ten minutes: 3,000 reads, no 429.
    for (let second = 0; second < 600; second++) {
      for (const path of ['/platforms', '/settings', '/queue', '/content/series', '/webhooks']) {
        const res = await h.call('GET', `${API}${path}`);
        if (res.status !== 200) throw new Error(`${path} answered ${res.status} at second ${second}: ${await res.text()}`);
      }
      await h.clock.advance(1_000);
    }
    const events = await h.call('GET', `${API}/events`);
    expect(events.headers.get('RateLimit-Remaining')).toBe('599');
    await events.body?.cancel();
  });

  it('still answers the interface classes 429 at their documented limits, with Retry-After', async () => {
    const h = withMedia();
    h.connect(['twitter']);
    const cases: Array<{ method: string; path: string; body?: unknown; limit: number; retryAfter: string }> = [
      { method: 'POST', path: '/auth/validate', limit: 10, retryAfter: '60' },
      { method: 'POST', path: '/content/publish', body: { caption: 'hi', platforms: ['twitter'], scheduled_for: '2027-01-01T10:00:00Z' }, limit: 60, retryAfter: '3600' },
      { method: 'GET', path: '/content/scheduled', limit: 100, retryAfter: '3600' },
      { method: 'POST', path: '/media/prepare', body: { urls: ['https://example.com/a.jpg'] }, limit: 30, retryAfter: '3600' },
    ];
    for (const c of cases) {
      for (let i = 0; i < c.limit; i++) expect((await h.call(c.method, `${API}${c.path}`, { body: c.body })).status, `${c.path} #${i + 1}`).toBe(200);
      const refused = await h.call(c.method, `${API}${c.path}`, { body: c.body });
      expect(refused.status, c.path).toBe(429);
      expect(refused.headers.get('Retry-After'), c.path).toBe(c.retryAfter);
      expect((await errorOf(refused)).code).toBe('rate_limited');
    }
    // The reads outside the interface are untouched by all of it.
    expect((await h.call('GET', `${API}/platforms`)).status).toBe(200);
  });

  it('counts uploads in a class of their own, apart from media preparation', async () => {
    const h = withMedia({ config: { rateLimits: { media: { limit: 1 } } } });
    expect((await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://example.com/a.jpg'] } })).status).toBe(200);
    expect((await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://example.com/a.jpg'] } })).status).toBe(429);
    // The upload is refused for its size (over the stand-in's 1 KB cap), not for the used-up preparation class.
    const upload = await h.call('POST', `${API}/media/upload?filename=a.jpg`, { raw: 'x'.repeat(2048), headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': '2048' } });
    expect(upload.status).toBe(413);
    expect(upload.headers.get('RateLimit-Limit')).toBe('120');
  });

  it("lets the operator change each class: SOCIALPUB_RATE_LIMITS, the config file, and names the classes when one is unknown", async () => {
    const env = resolveConfig({ dataDir: '/x' }, { SOCIALPUB_RATE_LIMITS: 'platforms=5/1m,events=2' });
    expect(env.rateLimits.classes.platforms).toEqual({ limit: 5, windowMs: 60_000 });
    expect(env.rateLimits.classes.events).toEqual({ limit: 2, windowMs: 60_000 });
    expect(() => resolveConfig({ dataDir: '/x' }, { SOCIALPUB_RATE_LIMITS: 'reads=5' })).toThrow(/no rate class "reads" \(the classes: auth, publish, media, scheduled, media_status, validate, review, unpublish, upload, platforms, creator_info, settings, queue, series, events, webhooks, webhook_send, sandbox, account, inbox, inbox_reply, analytics, analytics_refresh, auth_failure\)/);

    const dir = mkdtempSync(join(tmpdir(), 'sp-rate-classes-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rate_limits: { webhook_send: { limit: 10, window_seconds: 600 } } }));
    expect(resolveConfig({ dataDir: dir }, {}).rateLimits.classes.webhook_send).toEqual({ limit: 10, windowMs: 600_000 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rate_limits: { everything: { limit: 10 } } }));
    expect(() => resolveConfig({ dataDir: dir }, {})).toThrow(/rate_limits\.everything/);

    const h = harness({ config: { rateLimits: { settings: { limit: 5, windowMs: 60_000 } } } });
    for (let i = 0; i < 5; i++) expect((await h.call('GET', `${API}/settings`)).status).toBe(200);
    expect((await h.call('GET', `${API}/platforms`)).status).toBe(200);
    const refused = await h.call('PATCH', `${API}/settings`, { body: {} });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect((await errorOf(refused)).message).toBe('rate limited (settings: 5 a minute); try again in 1 min');
  });
});
