import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/http/env';
import { openApiDocument, toOpenApiPath } from '../../src/http/openapi';
import { createMedia } from '../../src/create-media';
import { API, errorOf, harness } from './harness';
import { rateClass } from '../../src/http/middleware/rate-limit';
import { ROUTES } from '@socialpub/core';
import { mountRoutes } from '../../src/http/route-table/mount-route';
import { createIdempotencyRepository } from '../../src/store/idempotency';
import { ManualClock } from '../../src/util/clock';
import { openTestDatabase } from '../support/store-dialects';

describe('POST /content/validate', () => {
  it('reports a valid request with its targets and stores nothing', async () => {
    const h = harness();
    h.connect(['twitter']);
    const res = await h.call('POST', `${API}/content/validate`, { body: { caption: 'x', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      valid: true,
      targets: [{ platform: 'twitter', type: 'tweet', scheduled_for: '2026-12-25T10:00:00.000Z' }],
      errors: [],
      warnings: [],
    });
    expect(h.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('reports schema, timing, platform and connection problems as errors with their codes', async () => {
    const h = harness();
    const bad = await (await h.call('POST', `${API}/content/validate`, { body: { platforms: [] } })).json();
    expect(bad).toMatchObject({ success: true, valid: false });
    expect((bad as { errors: { path: string; code: string }[] }).errors.map((e) => [e.path, e.code])).toEqual(
      expect.arrayContaining([['caption', 'invalid_request'], ['platforms', 'invalid_request']]),
    );
    const unconnected = (await (await h.call('POST', `${API}/content/validate`, { body: { caption: 'x', platforms: ['threads'], publish_now: true } })).json()) as {
      valid: boolean;
      errors: { code: string }[];
    };
    expect(unconnected.valid).toBe(false);
    expect(unconnected.errors[0]!.code).toBe('platform_not_connected');
  });

  it('answers 400 for a body that is not valid JSON, 415 for one sent as another type (as docs/api.md says)', async () => {
    const h = harness();
    const notJson = await h.call('POST', `${API}/content/validate`, { body: 'hello' });
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).code).toBe('invalid_request');
    const notObject = await h.call('POST', `${API}/content/validate`, { body: '[1]' });
    expect(notObject.status).toBe(400);
    const form = await h.call('POST', `${API}/content/validate`, { body: 'caption=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect((await errorOf(form)).code).toBe('unsupported_media_type');
  });
});

describe('GET /platforms', () => {
  it('lists every platform with its types, rules and the caller\'s connection', async () => {
    const h = harness();
    h.connect(['facebook']);
    const res = await h.call('GET', `${API}/platforms`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { platforms: { platform: string; default_type: string; connection: unknown; media: Record<string, unknown> }[] };
    expect(body.platforms.map((p) => p.platform)).toEqual(['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'bluesky', 'mastodon', 'linkedin', 'pinterest']);
    const fb = body.platforms.find((p) => p.platform === 'facebook')!;
    expect(fb.connection).toEqual({ mode: 'sandbox', status: 'active', account: 'acct_facebook', page: 'Page', token_expires_at: null, paused: null });
    expect(body.platforms.find((p) => p.platform === 'tiktok')!.connection).toBeNull();
    expect(fb.media.story).toEqual({ min: 1, max: 10, kinds: ['image', 'video'], video_alone: false });
  });
});

describe('GET /platforms: paused connections', () => {
  it("shows a connection paused by its platform's limit, and until when; an app-wide pause on every connection of the platform; nothing once it ended", async () => {
    const h = harness();
    h.connect(['twitter', 'youtube', 'threads']);
    const now = h.clock.now();
    h.store.platformPauses.set({ platform: 'twitter', userId: h.user.id, until: now + 900_000, reason: 'X rate limit reached: Too Many Requests', platformCode: 'rate-limit-exceeded' }, now);
    h.store.platformPauses.set({ platform: 'twitter', userId: 'someone-else', until: now + 3_600_000, reason: 'not ours', platformCode: null }, now);
    h.store.platformPauses.set({ platform: 'youtube', userId: null, until: now + 7_200_000, reason: 'YouTube quota exceeded', platformCode: 'quotaExceeded' }, now);
    h.store.platformPauses.set({ platform: 'threads', userId: h.user.id, until: now, reason: 'ended', platformCode: null }, now);
    const paused = async () => {
      const body = (await (await h.call('GET', `${API}/platforms`)).json()) as { platforms: { platform: string; connection: { paused: unknown } | null }[] };
      return Object.fromEntries(body.platforms.filter((p) => p.connection).map((p) => [p.platform, p.connection?.paused]));
    };
    expect(await paused()).toEqual({
      twitter: { until: '2026-12-25T09:15:00.000Z', applies_to: 'connection', reason: 'X rate limit reached: Too Many Requests', platform_code: 'rate-limit-exceeded' },
      threads: null,
      youtube: { until: '2026-12-25T11:00:00.000Z', applies_to: 'app', reason: 'YouTube quota exceeded', platform_code: 'quotaExceeded' },
    });
    h.clock.set(now + 900_000);
    expect((await paused()).twitter).toBeNull();
  });
});

describe('GET /healthz', () => {
  it('reports the scheduler and target counts', async () => {
    const h = harness();
    h.connect(['twitter']);
    await h.call('POST', `${API}/content/publish`, { body: { caption: 'x', platforms: ['twitter'], publish_now: true } });
    h.scheduler.state = { running: true, lastTick: h.clock.now() - 1000, stalled: false, wheelSize: 1 };
    const res = await h.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      scheduler: { running: true, last_tick: '2026-12-25T08:59:59.000Z', stalled: false, wheel_size: 1 },
      targets: { scheduled: 1, published: 0 },
    });
  });

  it('answers 503 unhealthy when the scheduler has stalled', async () => {
    const h = harness();
    h.scheduler.state = { running: true, lastTick: h.clock.now() - 120_000, stalled: true, wheelSize: 0 };
    const res = await h.app.request('/healthz');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { status: string }).status).toBe('unhealthy');
  });
});

describe('errors', () => {
  it('carries X-Request-Id on successes and errors, the same id as error.request_id', async () => {
    const h = harness();
    const ok = await h.call('POST', `${API}/auth/validate`);
    expect(ok.headers.get('X-Request-Id')).toMatch(/^req_[0-9a-f]{32}$/);
    const bad = await h.call('POST', `${API}/auth/validate`, { headers: { 'X-API-Key': 'nope' } });
    const id = bad.headers.get('X-Request-Id');
    expect(id).toMatch(/^req_/);
    expect(((await bad.json()) as { error: { request_id: string } }).error.request_id).toBe(id);
  });

  it('answers an unknown route with the error body and 404', async () => {
    const h = harness();
    const res = await h.app.request('/nope');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
  });

  it('turns an unexpected error into a plain 500 without a stack trace, and logs it', async () => {
    const lines: string[] = [];
    const { createLogger } = await import('../../src/util/logger');
    const boom = new Hono<AppEnv>().get('/status/:id', rateClass('media_status'), () => {
      throw new Error('secret internals at /home/x/app.ts:12');
    });
    const h = harness({ deps: { mediaRoutes: boom, logger: createLogger({ write: (l) => lines.push(l) }) } });
    const res = await h.call('GET', `${API}/media/status/abc`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internals');
    expect(text).not.toContain('app.ts');
    expect(JSON.parse(text)).toMatchObject({ success: false, error: { code: 'internal' } });
    expect(lines.some((l) => l.includes('secret internals'))).toBe(true);
  });

  it('answers 503 with Retry-After when the database stays busy, since nothing was written', async () => {
    const busy = new Hono<AppEnv>().get('/status/:id', rateClass('media_status'), () => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    });
    const h = harness({ deps: { mediaRoutes: busy } });
    const res = await h.call('GET', `${API}/media/status/abc`);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('1');
    expect(await errorOf(res)).toMatchObject({ code: 'unavailable', retry_after: 1 });
  });

  it('exempts the sandbox simulators from https_required (the daemon calls them over loopback)', async () => {
    const sandbox = new Hono().get('/graph/me', (c) => c.json({ id: '1' }));
    const h = harness({ config: { behindProxy: true, host: '0.0.0.0' }, deps: { sandbox } });
    expect((await h.app.request('/sandbox/graph/me')).status).toBe(200);
    expect((await h.app.request(`${API}/openapi.json`)).status).toBe(403);
  });

  it('answers 403 https_required behind a proxy for a request that did not come over HTTPS', async () => {
    const h = harness({ config: { behindProxy: true, host: '0.0.0.0' } });
    const plain = await h.call('POST', `${API}/auth/validate`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(plain.status).toBe(403);
    expect((await errorOf(plain)).code).toBe('https_required');
    const secure = await h.call('POST', `${API}/auth/validate`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(secure.status).toBe(200);
    expect((await h.app.request('/healthz')).status).toBe(200);
  });

  it('exempts the versioned health alias from https_required like /healthz (a load balancer probes over plain HTTP)', async () => {
    const h = harness({ config: { behindProxy: true, host: '0.0.0.0' } });
    const res = await h.app.request(`${API}/healthz`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('media routes of another module', () => {
  it('are mounted behind auth and the media limit, and read the user from the context', async () => {
    // Another module's app, built from the route table's declarations of the media routes:
    // they bring their rate classes and POST /prepare's Idempotency-Key with them.
    const media = new Hono<AppEnv>();
    const records = openTestDatabase(':memory:');
    mountRoutes(
      media,
      ROUTES,
      {
        'media.prepare': (_input, c) => ({ success: true as const, task_id: `task_for_${c.get('user').email}`, message: 'ok' }),
        // Not a MediaStatus: this mount does not check answers (validateResponses off), so the stand-in's own shape goes out.
        'media.status': ({ params }) => ({ id: params.task_id }) as never,
      },
      { store: { idempotency: createIdempotencyRepository(records) }, clock: new ManualClock(), under: `${API}/media` },
    );
    const h = harness({ deps: { mediaRoutes: media }, config: { rateLimits: { media: { limit: 3 } } } });
    expect((await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://x/a.jpg'] }, headers: { 'X-API-Key': '' } })).status).toBe(401);
    const ok = await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://x/a.jpg'] }, headers: { 'Idempotency-Key': 'm1' } });
    expect(ok.headers.get('RateLimit-Limit')).toBe('3');
    expect(((await ok.json()) as { task_id: string }).task_id).toBe('task_for_owner@example.com');
    const replay = await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://x/a.jpg'] }, headers: { 'Idempotency-Key': 'm1' } });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const conflict = await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://x/b.jpg'] }, headers: { 'Idempotency-Key': 'm1' } });
    expect(conflict.status).toBe(409);
    // The third POST used the last of the 3; status polls have their own, larger class.
    expect((await h.call('POST', `${API}/media/prepare`, { body: { urls: ['https://x/c.jpg'] } })).status).toBe(429);
    const poll = await h.call('GET', `${API}/media/status/t1`);
    expect(poll.status).toBe(200);
    expect(poll.headers.get('RateLimit-Limit')).toBe('600');
  });
});

describe('OpenAPI document', () => {
  it('is served without a key and passes an OpenAPI 3.1 validator', async () => {
    const h = harness();
    const res = await h.app.request(`${API}/openapi.json`);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document (so the check above can fail).
    const broken = await new Validator().validate({ ...doc, paths: { '/x': { get: { responses: 'none' } } } } as never);
    expect(broken.valid).toBe(false);
  });

  it('describes every route the app serves, and every method, with the real media module mounted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-openapi-'));
    const base = harness();
    const media = createMedia({ store: base.store, dir, publicBaseUrl: 'http://127.0.0.1:8787' });
    const h = harness({ deps: { mediaRoutes: media.mediaRoutes, fileRoutes: media.fileRoutes } });
    rmSync(dir, { recursive: true, force: true });
    const paths = (openApiDocument() as { paths: Record<string, Record<string, unknown>> }).paths;
    const served = h.app.routes.filter((r) => r.method !== 'ALL');
    expect(served.length).toBeGreaterThan(10);
    const missing = served.filter((r) => !paths[toOpenApiPath(r.path)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('carries the core schemas as components', () => {
    const schemas = (openApiDocument() as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const id of ['PublishRequest', 'PublishResult', 'Post', 'PostList', 'UpdateRequest', 'CancelResponse', 'Error', 'MediaStatus', 'PrepareRequest', 'Health']) {
      expect(schemas[id]).toBeDefined();
    }
  });
});

describe('robustness', () => {
  it('answers 200 for a stored job even when notifying the scheduler fails', async () => {
    const h = harness({
      deps: {
        scheduler: {
          targetsChanged: () => {
            throw new Error('wheel is full');
          },
          status: () => ({ running: true, lastTick: null, stalled: false, wheelSize: 0 }),
        },
      },
    });
    h.connect(['twitter']);
    const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'x', platforms: ['twitter'], publish_now: true } });
    expect(res.status).toBe(200);
    expect(h.store.jobs.get(((await res.json()) as { job_id: string }).job_id)).not.toBeNull();
  });

  it('refuses a multi-megabyte caption without running the exact counters over it', async () => {
    const h = harness();
    h.connect(['twitter', 'threads']);
    const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'ab.cd'.repeat(1_000_000), platforms: ['twitter', 'threads'], publish_now: true } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details!.map((d) => d.message)).toEqual([
      'twitter captions are at most 280 characters (this one has over 60,000)',
      'threads captions are at most 500 characters (this one has over 60,000)',
    ]);
  });

  it('treats an empty X-API-Key header as absent when a Bearer key is given', async () => {
    const h = harness();
    const res = await h.call('POST', `${API}/auth/validate`, { headers: { 'X-API-Key': ' ', Authorization: `Bearer ${h.key}` } });
    expect(res.status).toBe(200);
  });
});
