import { afterEach, describe, expect, it } from 'vitest';
import { API, cookieOf, dashboardHarness } from './fixture';
import { errorOf } from '../http/harness';
import type { HarnessOptions } from '../http/harness';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});
function setup(opts: HarnessOptions = {}) {
  const h = dashboardHarness(opts);
  cleanup.push(h.remove);
  h.connect(['twitter']);
  return h;
}

const setCookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('sp_session=')) ?? null;
const tweet = { caption: 'hello', platforms: ['twitter'], scheduled_for: '2026-12-26T10:00:00Z' };

describe('the one-time sign-in link', () => {
  it('signs in once: a session cookie (HttpOnly, SameSite=Strict, Path=/, 12 h) and a 303 to / that drops the token from the address bar', async () => {
    const h = setup();
    const { token, expiresAt } = h.store.dashboardSessions.createSigninLink(h.user.id, h.clock.now());
    expect(expiresAt - h.clock.now()).toBe(10 * 60_000);
    const res = await h.app.request(`/auth/link/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const set = setCookieOf(res) as string;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).toMatch(/; Path=\//);
    expect(set).toMatch(/; Max-Age=43200/);
    expect(set).not.toMatch(/Secure/);
    const cookie = cookieOf(res) as string;
    const app = await h.app.request('/', { headers: { Cookie: `sp_session=${cookie}` } });
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('<title>app</title>');

    const again = await h.app.request(`/auth/link/${token}`);
    expect(again.status).toBe(410);
    expect(setCookieOf(again)).toBeNull();
    expect(await again.text()).toContain('already used or has expired');
  });

  it('is refused after 10 minutes', async () => {
    const h = setup();
    const { token } = h.store.dashboardSessions.createSigninLink(h.user.id, h.clock.now());
    await h.clock.advance(10 * 60_000);
    const res = await h.app.request(`/auth/link/${token}`);
    expect(res.status).toBe(410);
    expect(setCookieOf(res)).toBeNull();
  });

  it('stores only the hash of the token and of the session', async () => {
    const h = setup();
    const { token } = h.store.dashboardSessions.createSigninLink(h.user.id, h.clock.now());
    const cookie = cookieOf(await h.app.request(`/auth/link/${token}`)) as string;
    const dump = JSON.stringify([h.db.prepare('SELECT * FROM signin_links').all(), h.db.prepare('SELECT * FROM dashboard_sessions').all()]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(cookie);
    expect(dump).toContain(h.user.id);
  });

  it('opened from another site, asks for a click (a same-origin form post) instead of signing in at once', async () => {
    const h = setup();
    const { token } = h.store.dashboardSessions.createSigninLink(h.user.id, h.clock.now());
    const res = await h.app.request(`/auth/link/${token}`, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(res.status).toBe(200);
    expect(setCookieOf(res)).toBeNull();
    expect(await res.text()).toContain(`<form method="post" action="/auth/link/${token}">`);
    const forged = await h.app.request(`/auth/link/${token}`, { method: 'POST', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
    expect(forged.status).toBe(403);
    expect((await errorOf(forged)).code).toBe('csrf_failed');
    const confirmed = await h.app.request(`/auth/link/${token}`, { method: 'POST', headers: { Origin: h.origin, 'Sec-Fetch-Site': 'same-origin' } });
    expect(confirmed.status).toBe(303);
    expect(cookieOf(confirmed)).toMatch(/^sps_/);
  });

  it('sets the Secure flag when served over TLS (behind a TLS proxy)', async () => {
    const h = setup({ config: { behindProxy: true } });
    const { token } = h.store.dashboardSessions.createSigninLink(h.user.id, h.clock.now());
    const res = await h.app.request(`/auth/link/${token}`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(303);
    expect(setCookieOf(res)).toMatch(/; Secure/);
  });
});

describe('sign-in with an API key', () => {
  const post = (h: ReturnType<typeof setup>, body: unknown, headers: Record<string, string> = { Origin: h.origin }) =>
    h.app.request('/auth/session', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('opens a session for a valid key, never echoing it; refuses a bad one with 401', async () => {
    const h = setup();
    const res = await post(h, { api_key: h.key });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(h.key);
    const body = JSON.parse(text) as { user: { id: string; email: string }; expires_at: string };
    expect(body.user).toEqual({ id: h.user.id, email: 'owner@example.com' });
    expect(Date.parse(body.expires_at)).toBe(h.clock.now() + 12 * 3_600_000);
    expect(cookieOf(res)).toMatch(/^sps_[0-9a-z]{50}$/);

    const bad = await post(h, { api_key: `${h.key.slice(0, -1)}${h.key.endsWith('x') ? 'y' : 'x'}` });
    expect(bad.status).toBe(401);
    expect((await errorOf(bad)).code).toBe('unauthorized');
    expect(setCookieOf(bad)).toBeNull();
    const revokedKey = h.addUser('other@example.com').key;
    h.store.apiKeys.revoke(revokedKey.slice(3, 27), h.clock.now());
    const revoked = await post(h, { api_key: revokedKey });
    expect(revoked.status).toBe(401);
    expect((await errorOf(revoked)).message).toBe('this API key was revoked');
  });

  it('refuses a sign-in posted from another site (login CSRF) and an oversized body', async () => {
    const h = setup();
    const cross = await post(h, { api_key: h.key }, { Origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(setCookieOf(cross)).toBeNull();
    const none = await post(h, { api_key: h.key }, {});
    expect(none.status).toBe(403);
    const big = await post(h, { api_key: h.key, pad: 'x'.repeat(10_000) });
    expect(big.status).toBe(413);
  });

  it('counts sign-ins in the user’s authentication class', async () => {
    const h = setup({ config: { rateLimits: { auth: { limit: 2 } } } });
    for (let i = 0; i < 2; i++) expect((await post(h, { api_key: h.key })).status).toBe(200);
    const third = await post(h, { api_key: h.key });
    expect(third.status).toBe(429);
    expect(setCookieOf(third)).toBeNull();
    expect((h.db.prepare('SELECT count(*) AS n FROM dashboard_sessions').get() as { n: number }).n).toBe(2);
  });

  it('counts failures against the address like bad keys do: guesses of the key format lock the address, other text only itself', async () => {
    const h = setup({ config: { rateLimits: { auth_failure: { limit: 2, windowMs: 60_000 } } } });
    for (let i = 0; i < 2; i++) expect((await post(h, { api_key: 'sp_nope' })).status).toBe(401);
    expect((await post(h, { api_key: 'sp_nope' })).status).toBe(429);
    expect((await post(h, { api_key: h.key })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await post(h, { api_key: `sp_key_${String(i).padStart(20, 'a')}_${'b'.repeat(40)}` })).status).toBe(401);
    const blocked = await post(h, { api_key: h.key });
    expect(blocked.status).toBe(429);
  });
});

describe('the session on the API', () => {
  it('answers GET /auth/session with the user, the CSRF token and the expiry; 401 without', async () => {
    const h = setup();
    const s = await h.signIn();
    const res = await h.app.request('/auth/session', { headers: { Cookie: `sp_session=${s.cookie}` } });
    const body = (await res.json()) as { user: { id: string }; csrf_token: string; expires_at: string };
    expect(body.user.id).toBe(h.user.id);
    expect(body.csrf_token).toBe(s.csrf);
    expect(body.csrf_token.length).toBeGreaterThanOrEqual(43);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await h.app.request('/auth/session')).status).toBe(401);
    expect((await h.app.request('/auth/session', { headers: { Cookie: 'sp_session=sps_forged' } })).status).toBe(401);
  });

  it('reads every API endpoint as the session user; without a session no data', async () => {
    const h = setup();
    const job = (await (await h.call('POST', `${API}/content/publish`, { body: tweet })).json()) as { job_id: string };
    const s = await h.signIn();
    const list = await h.page('GET', `${API}/content/scheduled`, s);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { posts: { job_id: string }[] }).posts.map((p) => p.job_id)).toEqual([job.job_id]);
    for (const path of ['/content/scheduled', '/settings', '/platforms', '/queue', '/webhooks']) {
      const res = await h.app.request(`${API}${path}`);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain(job.job_id);
    }
  });

  it('lets a Bearer key win over the cookie', async () => {
    const h = setup();
    const other = h.addUser('other@example.com');
    const s = await h.signIn();
    const valid = await h.app.request(`${API}/auth/validate`, { method: 'POST', headers: { Cookie: `sp_session=${s.cookie}`, Authorization: `Bearer ${other.key}` } });
    expect(((await valid.json()) as { user: { email: string } }).user.email).toBe('other@example.com');
  });

  it('changes state only with the CSRF token and a same-origin request', async () => {
    const h = setup();
    const s = await h.signIn();
    const count = () => (h.db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n;

    const noToken = await h.page('POST', `${API}/content/publish`, { cookie: s.cookie }, { body: tweet });
    expect(noToken.status).toBe(403);
    expect((await errorOf(noToken)).code).toBe('csrf_failed');
    const wrongToken = await h.page('POST', `${API}/content/publish`, { cookie: s.cookie, csrf: `${s.csrf.slice(0, -1)}${s.csrf.endsWith('A') ? 'B' : 'A'}` }, { body: tweet });
    expect(wrongToken.status).toBe(403);
    const crossOrigin = await h.page('POST', `${API}/content/publish`, s, { body: tweet, headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossOrigin.status).toBe(403);
    const sameSite = await h.page('POST', `${API}/content/publish`, s, { body: tweet, headers: { Origin: 'http://sub.localhost', 'Sec-Fetch-Site': 'same-site' } });
    expect(sameSite.status).toBe(403);
    const noOrigin = await h.page('POST', `${API}/content/publish`, s, { body: tweet, headers: { Origin: '', 'Sec-Fetch-Site': '' } });
    expect(noOrigin.status).toBe(403);
    // A classic cross-site HTML form: urlencoded, no custom header, the cookie attached.
    const form = await h.app.request(`${API}/content/publish`, {
      method: 'POST',
      headers: { Cookie: `sp_session=${s.cookie}`, 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      body: 'caption=pwned&platforms=twitter&publish_now=true',
    });
    expect(form.status).toBe(403);
    expect(count()).toBe(0);

    const ok = await h.page('POST', `${API}/content/publish`, s, { body: tweet });
    expect(ok.status).toBe(200);
    expect(count()).toBe(1);
    const secFetchOnly = await h.page('POST', `${API}/content/publish`, s, { body: tweet, headers: { Origin: '' } });
    expect(secFetchOnly.status).toBe(200);
    expect(count()).toBe(2);
  });

  it('refuses cross-site approve, PATCH and DELETE with the cookie, leaving the job as it was', async () => {
    const h = setup();
    h.store.users.setApprovalWorkflow(h.user.id, true);
    const job = (await (await h.call('POST', `${API}/content/publish`, { body: tweet })).json()) as { job_id: string; status: string };
    expect(job.status).toBe('pending_approval');
    const s = await h.signIn();
    const evil = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' };
    for (const [method, path, body] of [
      ['POST', `/content/scheduled/approve?job_id=${job.job_id}`, undefined],
      ['POST', `/content/scheduled/reject?job_id=${job.job_id}`, undefined],
      ['PATCH', `/content/scheduled?job_id=${job.job_id}`, { caption: 'changed' }],
      ['DELETE', `/content/scheduled?job_id=${job.job_id}`, undefined],
      ['PUT', '/settings', { approval_workflow: false }],
    ] as const) {
      const res = await h.page(method, `${API}${path}`, s, { headers: evil, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const after = (await (await h.call('GET', `${API}/content/scheduled?job_id=${job.job_id}`)).json()) as { post: { status: string; caption: string } };
    expect(after.post).toMatchObject({ status: 'pending_approval', caption: 'hello' });
    expect(h.store.users.get(h.user.id)?.approvalWorkflow).toBe(true);
  });

  it('expires 12 hours after the last use (sliding), then serves neither pages nor data', async () => {
    const h = setup();
    const s = await h.signIn();
    await h.clock.advance(11 * 3_600_000);
    expect((await h.page('GET', '/', s)).status).toBe(200); // slides the expiry
    await h.clock.advance(11 * 3_600_000);
    expect((await h.page('GET', `${API}/settings`, s)).status).toBe(200);
    await h.clock.advance(12 * 3_600_000);
    const page = await h.page('GET', '/', s);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin');
    expect((await h.page('GET', `${API}/settings`, s)).status).toBe(401);
  });

  it('signs out only with the CSRF token; after that the cookie is dead', async () => {
    const h = setup();
    const s = await h.signIn();
    const forged = await h.page('POST', '/auth/signout', { cookie: s.cookie }, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
    expect(forged.status).toBe(403);
    expect((await h.page('GET', `${API}/settings`, s)).status).toBe(200);
    const out = await h.page('POST', '/auth/signout', s);
    expect(out.status).toBe(204);
    expect(setCookieOf(out)).toMatch(/^sp_session=; Max-Age=0/);
    expect((await h.page('GET', `${API}/settings`, s)).status).toBe(401);
    expect((await h.page('GET', '/settings', s)).status).toBe(303);
  });

  it('streams events over SSE with the cookie', async () => {
    const h = setup();
    const s = await h.signIn();
    const res = await h.page('GET', `${API}/events`, s);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: ready');
    await reader.cancel();
  });

  it('ends the SSE stream once the session is signed out', async () => {
    const h = setup();
    const s = await h.signIn();
    const res = await h.page('GET', `${API}/events`, s);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: live')) text += new TextDecoder().decode((await reader.read()).value);
    expect((await h.page('POST', '/auth/signout', s)).status).toBe(204);
    // The next wake-up (the heartbeat on the injected clock) finds the session gone and ends the stream.
    await h.clock.advance(60_000);
    let done = false;
    for (let i = 0; i < 20 && !done; i++) done = (await reader.read()).done;
    expect(done).toBe(true);
    expect((await h.page('GET', `${API}/events`, s)).status).toBe(401);
  });
});
