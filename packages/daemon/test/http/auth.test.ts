import { describe, expect, it } from 'vitest';
import { API, errorOf, harness } from './harness';

const validate = `${API}/auth/validate`;
/** A key of the key format that no user has: a guess. */
const guess = (n = 0) => `sp_key_${String(n).padStart(20, 'a')}_${'b'.repeat(40)}`;

describe('authentication', () => {
  it('accepts the key in X-API-Key and answers valid with the user', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, valid: true, user: { id: h.user.id, email: 'owner@example.com' }, scope: 'full' });
  });

  it('accepts the key as Authorization: Bearer', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { 'X-API-Key': '', Authorization: `Bearer ${h.key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(h.user.id);
  });

  it('accepts both headers when they carry the same key', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { Authorization: `Bearer ${h.key}` } });
    expect(res.status).toBe(200);
  });

  it('answers 401 when the two headers carry different keys', async () => {
    const h = harness();
    const other = h.addUser('other@example.com');
    const res = await h.call('POST', validate, { headers: { Authorization: `Bearer ${other.key}` } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/different keys/);
  });

  it('answers 401 naming both accepted headers when the key is missing', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { 'X-API-Key': '' } });
    expect(res.status).toBe(401);
    const e = await errorOf(res);
    expect(e.code).toBe('unauthorized');
    expect(e.message).toContain('X-API-Key');
    expect(e.message).toContain('Authorization: Bearer');
  });

  it('answers 401 naming both accepted headers for a key in another header', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { 'X-API-Key': '', 'Api-Key': h.key } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/X-API-Key.*Authorization: Bearer/);
  });

  it('answers 401 naming both accepted headers for another Authorization scheme', async () => {
    const h = harness();
    const res = await h.call('POST', validate, { headers: { 'X-API-Key': '', Authorization: `Basic ${Buffer.from(`x:${h.key}`).toString('base64')}` } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/X-API-Key.*Authorization: Bearer/);
  });

  it('answers 401 for a malformed key and for an unknown one', async () => {
    const h = harness();
    for (const key of ['nonsense', 'sp_key_aaaaaaaaaaaaaaaaaaaa_' + 'b'.repeat(40), h.key.slice(0, -1) + (h.key.endsWith('a') ? 'b' : 'a')]) {
      const res = await h.call('POST', validate, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('unauthorized');
    }
  });

  it('refuses a revoked key with 401', async () => {
    const h = harness();
    const keyId = h.store.apiKeys.list(h.user.id)[0]!.id;
    h.store.apiKeys.revoke(keyId, h.clock.now());
    const res = await h.call('POST', validate);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/revoked/);
  });

  it('refuses a rotated key with 401 and accepts its replacement', async () => {
    const h = harness();
    const keyId = h.store.apiKeys.list(h.user.id)[0]!.id;
    const fresh = h.store.apiKeys.rotate(keyId, h.clock.now())!;
    const old = await h.call('POST', validate);
    expect(old.status).toBe(401);
    expect((await errorOf(old)).message).toMatch(/rotated/);
    const now = await h.call('POST', validate, { headers: { 'X-API-Key': fresh.apiKey } });
    expect(now.status).toBe(200);
  });

  it('stores only a hash of the secret', () => {
    const h = harness();
    const secret = h.key.split('_').pop()!;
    const rows = h.db.prepare('SELECT * FROM api_keys').all();
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('limits failed authentication per client address, then lets the address in once the window passes', async () => {
    const h = harness({ config: { rateLimits: { auth_failure: { limit: 3, windowMs: 60_000 } } }, deps: { clientAddress: (c) => c.req.header('x-test-addr') ?? 'a' } });
    for (let i = 0; i < 3; i++) {
      const res = await h.call('POST', validate, { headers: { 'X-API-Key': guess(i), 'X-Test-Addr': '10.0.0.1' } });
      expect(res.status).toBe(401);
    }
    const blocked = await h.call('POST', validate, { headers: { 'X-Test-Addr': '10.0.0.1' } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    // Another address is not affected.
    expect((await h.call('POST', validate, { headers: { 'X-Test-Addr': '10.0.0.2' } })).status).toBe(200);
    await h.clock.advance(60_000);
    expect((await h.call('POST', validate, { headers: { 'X-Test-Addr': '10.0.0.1' } })).status).toBe(200);
  });

  it('behind a proxy, counts failures by the address the proxy appended, so a forged first X-Forwarded-For entry does not dodge the limit', async () => {
    const h = harness({ config: { behindProxy: true, host: '0.0.0.0', rateLimits: { auth_failure: { limit: 3, windowMs: 60_000 } } } });
    const via = (forged: string, extra: Record<string, string> = {}) => ({
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': `${forged}, 198.51.100.7`, ...extra },
    });
    for (let i = 0; i < 3; i++) expect((await h.call('POST', validate, via(`10.9.0.${i}`, { 'X-API-Key': guess(i) }))).status).toBe(401);
    expect((await h.call('POST', validate, via('10.9.0.99'))).status).toBe(429);
    // The same proxy forwarding another client is not affected.
    const other = await h.call('POST', validate, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '10.9.0.0, 198.51.100.8' } });
    expect(other.status).toBe(200);
  });

  it('with two trusted proxy hops, counts failures by the entry the outer proxy appended', async () => {
    const h = harness({ config: { behindProxy: true, trustedProxyHops: 2, host: '0.0.0.0', rateLimits: { auth_failure: { limit: 2, windowMs: 60_000 } } } });
    const via = (forged: string, key?: string) => ({
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': `${forged}, 198.51.100.7, 10.0.0.5`, ...(key ? { 'X-API-Key': key } : {}) },
    });
    for (let i = 0; i < 2; i++) expect((await h.call('POST', validate, via(`10.9.0.${i}`, guess(i)))).status).toBe(401);
    expect((await h.call('POST', validate, via('10.9.0.99'))).status).toBe(429);
    // A header shorter than the hops (a client reaching the inner proxy directly) counts by its first entry.
    const short = await h.call('POST', validate, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.9' } });
    expect(short.status).toBe(200);
  });

  it('40 keyless cross-site requests do not lock out a client with a valid key at the same address; they only refuse more of their kind', async () => {
    const h = harness({ deps: { clientAddress: () => '127.0.0.1' } });
    const page = { headers: { 'X-API-Key': '', 'Sec-Fetch-Site': 'cross-site' } };
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await h.call('POST', validate, page)).status);
    expect(statuses).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
    const refused = await h.call('POST', validate, page);
    expect(await errorOf(refused)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^rate limited \(failed authentications from web pages at this address: 30 per 10 minutes\); try again in /) });
    // The owner, with the key, from the same address: in; a local client that forgot its key is told 401, not 429.
    expect((await h.call('POST', validate)).status).toBe(200);
    expect((await h.call('POST', validate, { headers: { 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(200);
    expect((await h.call('POST', validate, { headers: { 'X-API-Key': '' } })).status).toBe(401);
    // A page on another port of localhost (same-site) counts with the cross-site ones.
    expect((await h.call('POST', validate, { headers: { 'X-API-Key': '', 'Sec-Fetch-Site': 'same-site' } })).status).toBe(429);
  });

  it('keyless requests, and keys not of the key format, refuse only requests without a key', async () => {
    const h = harness({ config: { rateLimits: { auth_failure: { limit: 3, windowMs: 60_000 } } }, deps: { clientAddress: () => '10.0.0.1' } });
    for (const key of ['', 'wrong', 'sp_nope']) expect((await h.call('POST', validate, { headers: { 'X-API-Key': key } })).status).toBe(401);
    const refused = await h.call('POST', validate, { headers: { 'X-API-Key': '' } });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toMatch(/^rate limited \(requests without a valid API key from this address: /);
    expect((await h.call('POST', validate)).status).toBe(200);
  });

  it('counts failures per key id too: one key guessed at from many addresses is refused, another key is not', async () => {
    const h = harness({ config: { rateLimits: { auth_failure: { limit: 3, windowMs: 60_000 } } }, deps: { clientAddress: (c) => c.req.header('x-test-addr') ?? 'a' } });
    for (let i = 0; i < 3; i++) expect((await h.call('POST', validate, { headers: { 'X-API-Key': guess(7), 'X-Test-Addr': `10.0.1.${i}` } })).status).toBe(401);
    const refused = await h.call('POST', validate, { headers: { 'X-API-Key': guess(7), 'X-Test-Addr': '10.0.1.9' } });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toMatch(/^rate limited \(failed authentications with this API key id: /);
    expect((await h.call('POST', validate, { headers: { 'X-API-Key': guess(8), 'X-Test-Addr': '10.0.1.9' } })).status).toBe(401);
    expect((await h.call('POST', validate, { headers: { 'X-Test-Addr': '10.0.1.9' } })).status).toBe(200);
  });

  it('does not limit failed authentication when rate limits are off', async () => {
    const h = harness({ config: { rateLimitsEnabled: false, rateLimits: { auth_failure: { limit: 1 } } } });
    for (let i = 0; i < 3; i++) expect((await h.call('POST', validate, { headers: { 'X-API-Key': 'wrong' } })).status).toBe(401);
    expect((await h.call('POST', validate)).status).toBe(200);
  });

  it('leaves health and the OpenAPI document open without a key', async () => {
    const h = harness();
    expect((await h.app.request('/healthz')).status).toBe(200);
    expect((await h.app.request(`${API}/openapi.json`)).status).toBe(200);
  });
});
