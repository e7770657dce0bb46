import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../http/harness';
import { startSim, type Sim } from '../platforms/meta/harness';
import { API, dashboardHarness } from './fixture';

let cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});
function setup(opts: Parameters<typeof dashboardHarness>[0] = {}) {
  const h = dashboardHarness(opts);
  cleanup.push(h.remove);
  return h;
}

describe('API keys (/keys)', () => {
  it('creates a key shown once, lists it by name and prefix without the secret, and the new key works', async () => {
    const h = setup();
    const created = await h.call('POST', `${API}/keys`, { body: { name: 'laptop' } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; name: string; prefix: string; key: string; created_at: string; last_used_at: null };
    expect(key).toMatchObject({ name: 'laptop', last_used_at: null });
    expect(key.key).toMatch(/^sp_key_[0-9a-z]{20}_[0-9a-z]{40}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    const list = (await (await h.call('GET', `${API}/keys`)).json()) as { data: { id: string; name: string | null; prefix: string }[] };
    expect(list.data.map((k) => k.name).sort()).toEqual(['laptop', 'test']);
    expect(JSON.stringify(list)).not.toContain(key.key);
    expect(Object.keys(list.data[1] as object).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix', 'scope']);
    const withNew = await h.call('GET', `${API}/settings`, { headers: { 'X-API-Key': key.key } });
    expect(withNew.status).toBe(200);
  });

  it('revokes (then 401) and rotates (old dies, new works); another user’s key is not found', async () => {
    const h = setup();
    const a = (await (await h.call('POST', `${API}/keys`, { body: {} })).json()) as { id: string; key: string; name: string | null };
    expect(a.name).toBeNull();
    const rotated = await h.call('POST', `${API}/keys/${a.id}/rotate`);
    expect(rotated.status).toBe(201);
    const b = (await rotated.json()) as { id: string; key: string; replaced: string };
    expect(b.replaced).toBe(a.id);
    expect((await h.call('GET', `${API}/settings`, { headers: { 'X-API-Key': a.key } })).status).toBe(401);
    expect((await h.call('GET', `${API}/settings`, { headers: { 'X-API-Key': b.key } })).status).toBe(200);
    expect((await h.call('DELETE', `${API}/keys/${b.id}`)).status).toBe(204);
    const dead = await h.call('GET', `${API}/settings`, { headers: { 'X-API-Key': b.key } });
    expect(dead.status).toBe(401);
    expect((await errorOf(dead)).message).toBe('this API key was revoked');
    expect((await h.call('DELETE', `${API}/keys/${b.id}`)).status).toBe(404);
    const other = h.addUser('other@example.com');
    const theirs = h.store.apiKeys.list(other.user.id)[0]!.id;
    expect((await h.call('DELETE', `${API}/keys/${theirs}`)).status).toBe(404);
    expect((await h.call('POST', `${API}/keys/${theirs}/rotate`)).status).toBe(404);
    expect((await h.call('GET', `${API}/settings`, { headers: { 'X-API-Key': other.key } })).status).toBe(200);
  });

  it('refuses a bad name and unknown fields', async () => {
    const h = setup();
    const res = await h.call('POST', `${API}/keys`, { body: { name: '', admin: true } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.path).sort()).toEqual(['admin', 'name']);
  });

  it('works from the dashboard session (with CSRF) and the key never reaches a cookie', async () => {
    const h = setup();
    const s = await h.signIn();
    const res = await h.page('POST', `${API}/keys`, s, { body: { name: 'from dashboard' } });
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie()).toEqual([]);
    const forged = await h.page('POST', `${API}/keys`, { cookie: s.cookie }, { body: { name: 'forged' }, headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
    expect(forged.status).toBe(403);
    expect(h.store.apiKeys.list(h.user.id).map((k) => k.name).sort()).toEqual(['from dashboard', 'test']);
  });
});

describe('connections (/connections)', () => {
  it('connects a sandbox account, lists it, removes it', async () => {
    const h = setup();
    const res = await h.call('POST', `${API}/connections/sandbox`, { body: { platform: 'facebook' } });
    expect(res.status).toBe(201);
    const con = (await res.json()) as { id: string; platform: string; status: string; sandbox: boolean; page_name: string; name: string };
    expect(con).toMatchObject({ platform: 'facebook', status: 'active', sandbox: true, page_name: 'Sandbox page', name: 'Sandbox page' });
    const list = (await (await h.call('GET', `${API}/connections`)).json()) as { data: { id: string }[] };
    expect(list.data.map((c) => c.id)).toEqual([con.id]);
    const publish = await h.call('POST', `${API}/content/validate`, { body: { caption: 'hi', platforms: ['facebook'], publish_now: true } });
    expect(((await publish.json()) as { valid?: boolean; success?: boolean }).valid ?? true).toBe(true);
    const other = h.addUser('other@example.com');
    expect((await h.call('DELETE', `${API}/connections/${con.id}`, { headers: { 'X-API-Key': other.key } })).status).toBe(404);
    expect((await h.call('DELETE', `${API}/connections/${con.id}`)).status).toBe(204);
    expect(((await (await h.call('GET', `${API}/connections`)).json()) as { data: unknown[] }).data).toEqual([]);
    const bad = await h.call('POST', `${API}/connections/sandbox`, { body: { platform: 'myspace' } });
    expect(bad.status).toBe(400);
  });

  it('runs the live Facebook OAuth flow through the daemon: authorize URL, callback by state, page choice, connection saved', async () => {
    const sim: Sim = await startSim();
    cleanup.push(() => sim.close());
    sim.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
    sim.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'First page' });
    sim.state.addAccount({ id: 'p2', platform: 'facebook', kind: 'fb_page', username: 'p2', name: 'Second page' });
    sim.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1', 'p2'] });
    const h = setup({ clock: sim.clock, deps: { connectDeps: { baseUrl: sim.baseUrl } } });
    const s = await h.signIn();

    const started = await h.page('POST', `${API}/connections/facebook/authorize`, s, { body: { client_id: '1234', client_secret: 'app-secret' } });
    expect(started.status).toBe(200);
    const flow = (await started.json()) as { id: string; status: string; authorize_url: string; redirect_uri: string };
    expect(flow.status).toBe('authorizing');
    expect(flow.redirect_uri).toBe('http://localhost/connect/callback');
    const authorize = new URL(flow.authorize_url);
    expect(authorize.origin + authorize.pathname).toBe('https://www.facebook.com/v25.0/dialog/oauth');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost/connect/callback');
    const state = authorize.searchParams.get('state') as string;

    // A forged callback (another state) moves nothing.
    const forged = await h.app.request(`/connect/callback?code=x&state=${state}x`);
    expect(forged.status).toBe(400);
    expect(forged.headers.get('content-security-policy')).toContain("default-src 'self'");

    // The person consents at Facebook, which sends the browser back to the daemon.
    const code = sim.state.authorize({ platform: 'facebook', appId: '1234', redirectUri: flow.redirect_uri, accountId: 'fbu' });
    const back = await h.app.request(`/connect/callback?code=${code}%23_&state=${state}`);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/connections?pending=${flow.id}`);

    const pending = (await (await h.page('GET', `${API}/connections/pending/${flow.id}`, s)).json()) as { status: string; choices: { id: string; label: string }[] };
    expect(pending.status).toBe('choosing');
    expect(pending.choices).toEqual([
      { id: 'p1', label: 'First page (p1)' },
      { id: 'p2', label: 'Second page (p2)' },
    ]);
    expect((await h.page('POST', `${API}/connections/pending/${flow.id}/choose`, s, { body: { page_id: 'p9' } })).status).toBe(409);
    const chosen = await h.page('POST', `${API}/connections/pending/${flow.id}/choose`, s, { body: { page_id: 'p2' } });
    const done = (await chosen.json()) as { status: string; connection: { platform: string; page_id: string; page_name: string; sandbox: boolean; status: string } };
    expect(done.status).toBe('connected');
    expect(done.connection).toMatchObject({ platform: 'facebook', page_id: 'p2', page_name: 'Second page', sandbox: false, status: 'active' });
    // The page's own token is stored (sealed), not the user token the code was exchanged for.
    const stored = h.store.credentials.credentialsFor(h.user.id, 'facebook')?.secrets.access_token;
    expect(stored).toMatch(/^\S{8,}$/);

    // The same callback again belongs to no flow.
    expect((await h.app.request(`/connect/callback?code=${code}&state=${state}`)).status).toBe(400);
    // Another user cannot see the flow.
    const other = h.addUser('other@example.com');
    expect((await h.call('GET', `${API}/connections/pending/${flow.id}`, { headers: { 'X-API-Key': other.key } })).status).toBe(404);
  });

  it('connects another account under the label the authorize names, beside the default one (a malformed label is a 400)', async () => {
    const sim: Sim = await startSim();
    cleanup.push(() => sim.close());
    sim.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
    sim.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'Brand page' });
    sim.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1'] });
    const h = setup({ clock: sim.clock, deps: { connectDeps: { baseUrl: sim.baseUrl } } });
    const s = await h.signIn();
    const sandbox = await h.page('POST', `${API}/connections/sandbox`, s, { body: { platform: 'facebook' } });
    expect(sandbox.status).toBe(201);

    const bad = await h.page('POST', `${API}/connections/facebook/authorize`, s, { body: { client_id: '1234', client_secret: 'app-secret', label: 'Brand Page' } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.[0]?.path).toBe('label');

    const started = await h.page('POST', `${API}/connections/facebook/authorize`, s, { body: { client_id: '1234', client_secret: 'app-secret', label: 'brand' } });
    expect(started.status).toBe(200);
    const flow = (await started.json()) as { id: string; authorize_url: string; redirect_uri: string };
    const state = new URL(flow.authorize_url).searchParams.get('state') as string;
    const code = sim.state.authorize({ platform: 'facebook', appId: '1234', redirectUri: flow.redirect_uri, accountId: 'fbu' });
    expect((await h.app.request(`/connect/callback?code=${code}&state=${state}`)).status).toBe(303);
    const done = (await (await h.page('GET', `${API}/connections/pending/${flow.id}`, s)).json()) as { status: string; connection: { label: string; is_default: boolean; page_id: string } };
    expect(done.status).toBe('connected');
    expect(done.connection).toMatchObject({ label: 'brand', is_default: false, page_id: 'p1' });
    const listed = (await (await h.page('GET', `${API}/connections`, s)).json()) as { data: { label: string; sandbox: boolean; is_default: boolean }[] };
    expect(listed.data.map((c) => [c.label, c.sandbox, c.is_default])).toEqual([
      ['default', true, true],
      ['brand', false, false],
    ]);
  });

  it('connects several Facebook pages of one login, one account each: the first as asked, the others under their own labels', async () => {
    const sim: Sim = await startSim();
    cleanup.push(() => sim.close());
    sim.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
    sim.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'First page' });
    sim.state.addAccount({ id: 'p2', platform: 'facebook', kind: 'fb_page', username: 'p2', name: 'Café Müller & Co.' });
    sim.state.addAccount({ id: 'p3', platform: 'facebook', kind: 'fb_page', username: 'p3', name: 'Third page' });
    sim.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1', 'p2', 'p3'] });
    const h = setup({ clock: sim.clock, deps: { connectDeps: { baseUrl: sim.baseUrl } } });
    const s = await h.signIn();

    const connectPages = async (ids: string[]) => {
      const flow = (await (await h.page('POST', `${API}/connections/facebook/authorize`, s, { body: { client_id: '1234', client_secret: 'app-secret' } })).json()) as { id: string; authorize_url: string; redirect_uri: string };
      const state = new URL(flow.authorize_url).searchParams.get('state') as string;
      const code = sim.state.authorize({ platform: 'facebook', appId: '1234', redirectUri: flow.redirect_uri, accountId: 'fbu' });
      expect((await h.app.request(`/connect/callback?code=${code}&state=${state}`)).status).toBe(303);
      const asking = (await (await h.page('GET', `${API}/connections/pending/${flow.id}`, s)).json()) as { status: string; multiple: boolean; question: string };
      expect(asking).toMatchObject({ status: 'choosing', multiple: true, question: 'Which Facebook pages? (each one becomes an account)' });
      const chosen = await h.page('POST', `${API}/connections/pending/${flow.id}/choose`, s, { body: { page_ids: ids } });
      expect(chosen.status).toBe(200);
      return (await chosen.json()) as { status: string; connection: { page_id: string }; connections: { label: string; page_id: string; is_default: boolean }[] };
    };
    const done = await connectPages(['p1', 'p2']);
    expect(done.status).toBe('connected');
    expect(done.connection.page_id).toBe('p1');
    expect(done.connections.map((c) => [c.label, c.page_id, c.is_default])).toEqual([
      ['default', 'p1', true],
      ['caf-m-ller-co', 'p2', false],
    ]);
    // Each page is published to with its own page token.
    const tokens = h.store.connections.listForUser(h.user.id).map((c) => h.store.credentials.credentialsFor(h.user.id, 'facebook', c.id)?.secrets.access_token);
    expect(new Set(tokens).size).toBe(2);

    // Connected again with a third page: the second keeps its label (in place), the third gets its own.
    const again = await connectPages(['p1', 'p3', 'p2']);
    expect(again.connections.map((c) => [c.label, c.page_id])).toEqual([
      ['default', 'p1'],
      ['third-page', 'p3'],
      ['caf-m-ller-co', 'p2'],
    ]);
    const listed = (await (await h.page('GET', `${API}/connections`, s)).json()) as { data: { label: string; page_id: string }[] };
    expect(listed.data.map((c) => [c.label, c.page_id])).toEqual([
      ['default', 'p1'],
      ['caf-m-ller-co', 'p2'],
      ['third-page', 'p3'],
    ]);
  });

  it('refuses an authorize without a client id, and a flow nobody finishes expires after 10 minutes', async () => {
    const h = setup();
    const bad = await h.call('POST', `${API}/connections/facebook/authorize`, { body: {} });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.[0]?.path).toBe('client_id');
    const started = (await (await h.call('POST', `${API}/connections/twitter/authorize`, { body: { client_id: 'cid' } })).json()) as { id: string; authorize_url: string };
    expect(new URL(started.authorize_url).searchParams.get('code_challenge_method')).toBe('S256');
    await h.clock.advance(10 * 60_000);
    const after = await h.call('GET', `${API}/connections/pending/${started.id}`);
    expect(after.status).toBe(404);
  });
});

describe('connect flows in memory', () => {
  it('holds at most 5 open flows and 20 in 10 minutes per user', async () => {
    const h = setup();
    const start = (key = h.key) => h.call('POST', `${API}/connections/twitter/authorize`, { body: { client_id: 'cid' }, headers: { 'X-API-Key': key } });
    // Failed flows (TikTok without its client secret) stay readable for 10 minutes, and count.
    for (let i = 0; i < 15; i++) expect((await h.call('POST', `${API}/connections/tiktok/authorize`, { body: { client_id: 'ck' } })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await start()).status).toBe(200);
    const more = await start();
    expect(more.status).toBe(400);
    expect((await errorOf(more)).message).toContain('20 connects were started');
    const other = h.addUser('other@example.com');
    for (let i = 0; i < 5; i++) expect((await start(other.key)).status).toBe(200);
    const sixth = await start(other.key);
    expect((await errorOf(sixth)).message).toContain('5 connects are already in progress');
    await h.clock.advance(10 * 60_000);
    expect((await start()).status).toBe(200);
    expect((await start(other.key)).status).toBe(200);
  });
});

describe('rate classes of the new endpoints', () => {
  it('a burst of dashboard account calls leaves the scheduled-content window untouched', async () => {
    const h = setup({ config: { rateLimitsEnabled: true, rateLimits: { scheduled: { limit: 3 } } } });
    for (let i = 0; i < 5; i++) expect((await h.call('GET', `${API}/keys`)).status).toBe(200);
    const res = await h.call('GET', `${API}/content/scheduled`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('counts the dashboard session’s reads in the account class; its writes keep their class', async () => {
    const h = setup({ config: { rateLimitsEnabled: true, rateLimits: { scheduled: { limit: 2 } } } });
    const s = await h.signIn();
    for (let i = 0; i < 4; i++) {
      const res = await h.page('GET', `${API}/content/scheduled`, s);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('1200');
    }
    // A key's read still counts in the scheduled class (2 left of 2).
    expect((await h.call('GET', `${API}/content/scheduled`)).headers.get('ratelimit-remaining')).toBe('1');
    // A write keeps the class its route declares (settings: 600 a minute by default).
    const put = await h.page('PATCH', `${API}/settings`, s, { body: { timezone: 'Europe/Berlin' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('ratelimit-limit')).toBe('600');
  });
});
