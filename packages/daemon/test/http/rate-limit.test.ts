import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimitsEnv, resolveConfig } from '../../src/config';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { API, errorOf, harness } from './harness';

const validate = `${API}/auth/validate`;
const post = { caption: 'hello', platforms: ['twitter'], publish_now: true };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('rate limits', () => {
  it('answers an 11th /auth/validate in a minute with 429 and a Retry-After that counts down', async () => {
    const h = harness();
    h.clock.set(Date.UTC(2026, 11, 25, 9, 0, 0));
    for (let i = 1; i <= 10; i++) {
      const res = await h.call('POST', validate);
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit-Limit')).toBe('10');
      expect(res.headers.get('RateLimit-Remaining')).toBe(String(10 - i));
    }
    const refused = await h.call('POST', validate);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    const e = await errorOf(refused);
    expect(e.code).toBe('rate_limited');
    expect(e.retry_after).toBe(60);

    await h.clock.advance(20_500);
    const later = await h.call('POST', validate);
    expect(later.status).toBe(429);
    expect(later.headers.get('Retry-After')).toBe('40');
    expect((await errorOf(later)).retry_after).toBe(40);

    await h.clock.advance(39_000);
    const last = await h.call('POST', validate);
    expect(last.headers.get('Retry-After')).toBe('1');
    await h.clock.advance(500);
    expect((await h.call('POST', validate)).status).toBe(200);
  });

  it('answers a 61st publishing request in an hour with 429; validations have a class of their own', async () => {
    const h = harness();
    h.connect(['twitter']);
    for (let i = 0; i < 60; i++) expect((await h.call('POST', `${API}/content/publish`, { body: post })).status).toBe(200);
    const validated = await h.call('POST', `${API}/content/validate`, { body: post });
    expect(validated.status).toBe(200);
    expect(validated.headers.get('RateLimit-Limit')).toBe('600');
    const refused = await h.call('POST', `${API}/content/publish`, { body: post });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('3600');
    await h.clock.advance(3_599_000);
    const again = await h.call('POST', `${API}/content/publish`, { body: post });
    expect(again.headers.get('Retry-After')).toBe('1');
    // Nothing was stored for the refused requests.
    expect(h.store.jobs.list(h.user.id, { status: 'all', limit: 200, after: null }).jobs).toHaveLength(60);
  });

  it('counts per user: another user keeps a full allowance', async () => {
    const h = harness({ config: { rateLimits: { auth: { limit: 2 } } } });
    const other = h.addUser('other@example.com');
    await h.call('POST', validate);
    await h.call('POST', validate);
    expect((await h.call('POST', validate)).status).toBe(429);
    expect((await h.call('POST', validate, { headers: { 'X-API-Key': other.key } })).status).toBe(200);
  });

  it('limits the scheduled-content class at 100 an hour, with RateLimit headers on every response', async () => {
    const h = harness();
    let res: Response | undefined;
    for (let i = 0; i < 100; i++) res = await h.call('GET', `${API}/content/scheduled`);
    expect(res!.headers.get('RateLimit-Remaining')).toBe('0');
    expect(res!.headers.get('RateLimit-Reset')).toBe('3600');
    expect((await h.call('GET', `${API}/content/scheduled`)).status).toBe(429);
  });

  it('carries RateLimit headers on error responses of a limited endpoint too', async () => {
    const h = harness();
    const res = await h.call('POST', `${API}/content/publish`, { body: { platforms: ['twitter'] } });
    expect(res.status).toBe(400);
    expect(res.headers.get('RateLimit-Limit')).toBe('60');
    expect(res.headers.get('RateLimit-Remaining')).toBe('59');
  });

  it('keeps the counts across a restart (same database file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-rl-'));
    dirs.push(dir);
    const dbPath = join(dir, 'socialpub.db');
    const clock = new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0));
    const secrets = new SecretBox(randomBytes(32));
    const first = harness({ dbPath, clock, secrets });
    for (let i = 0; i < 10; i++) expect((await first.call('POST', validate)).status).toBe(200);
    first.db.close();

    const second = harness({ dbPath, clock, secrets });
    // The restarted app finds the first user's key and its used-up window.
    const res = await second.call('POST', validate, { headers: { 'X-API-Key': first.key } });
    expect(res.status).toBe(429);
    second.db.close();
  });

  it('applies a configured limit per class', async () => {
    const h = harness({ config: { rateLimits: { publish: { limit: 2, windowMs: 60_000 } } } });
    h.connect(['twitter']);
    await h.call('POST', `${API}/content/publish`, { body: post });
    await h.call('POST', `${API}/content/publish`, { body: post });
    const res = await h.call('POST', `${API}/content/publish`, { body: post });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('60');
  });

  it('lifts every limit when rate limits are off, and sends no RateLimit headers', async () => {
    const h = harness({ config: { rateLimitsEnabled: false } });
    for (let i = 0; i < 15; i++) {
      const res = await h.call('POST', validate);
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit-Limit')).toBeNull();
    }
  });

  it('reads SOCIALPUB_RATE_LIMITS: off, and per-class overrides', () => {
    expect(parseRateLimitsEnv('off').enabled).toBe(false);
    expect(resolveConfig({ dataDir: '/x' }, { SOCIALPUB_RATE_LIMITS: 'off' }).rateLimits.enabled).toBe(false);
    const cfg = resolveConfig({ dataDir: '/x' }, { SOCIALPUB_RATE_LIMITS: 'publish=600/1h,auth=100' });
    expect(cfg.rateLimits.enabled).toBe(true);
    expect(cfg.rateLimits.classes.publish).toEqual({ limit: 600, windowMs: 3_600_000 });
    expect(cfg.rateLimits.classes.auth).toEqual({ limit: 100, windowMs: 60_000 });
    expect(() => parseRateLimitsEnv('publish=lots')).toThrow(/SOCIALPUB_RATE_LIMITS/);
  });
});
