import { afterEach, describe, expect, it } from 'vitest';
import { API, cookieOf, dashboardHarness } from './fixture';
import type { HarnessOptions } from '../http/harness';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});
function setup(opts: HarnessOptions = {}) {
  const h = dashboardHarness(opts);
  cleanup.push(h.remove);
  return h;
}

type H = ReturnType<typeof setup>;

/** Signs in with a key as the sign-in page does; the session's cookie and CSRF token. */
async function signInWithKey(h: H, key: string) {
  const res = await h.app.request('/auth/session', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: h.origin }, body: JSON.stringify({ api_key: key }) });
  expect(res.status).toBe(200);
  const cookie = cookieOf(res) as string;
  const csrf = ((await (await h.app.request('/auth/session', { headers: { Cookie: `sp_session=${cookie}` } })).json()) as { csrf_token: string }).csrf_token;
  return { cookie, csrf };
}

const keyIdOf = (key: string) => key.slice(3, 27);
const alive = async (h: H, s: { cookie: string }) => (await h.page('GET', `${API}/content/scheduled`, s)).status;

interface Listed {
  id: string;
  signed_in_with: 'key' | 'link';
  key_prefix: string | null;
  current: boolean;
  created_at: string;
  last_seen_at: string;
}

describe('sessions end with their key', () => {
  it('ends the sessions a key opened when the key is revoked (API), and only those', async () => {
    const h = setup();
    const second = (await (await h.call('POST', `${API}/keys`, { body: { name: 'laptop' } })).json()) as { id: string; key: string };
    const byKey = await signInWithKey(h, second.key);
    const byOtherKey = await signInWithKey(h, h.key);
    const byLink = await h.signIn();
    expect(await alive(h, byKey)).toBe(200);
    expect((await h.call('DELETE', `${API}/keys/${second.id}`)).status).toBe(204);
    expect(await alive(h, byKey)).toBe(401);
    expect((await h.app.request('/auth/session', { headers: { Cookie: `sp_session=${byKey.cookie}` } })).status).toBe(401);
    expect(await alive(h, byOtherKey)).toBe(200);
    expect(await alive(h, byLink)).toBe(200);
  });

  it('ends them when the key is rotated, from the dashboard itself too (the session that rotates its own key ends)', async () => {
    const h = setup();
    const s = await signInWithKey(h, h.key);
    const rotated = await h.page('POST', `${API}/keys/${keyIdOf(h.key)}/rotate`, s);
    expect(rotated.status).toBe(201);
    expect(await alive(h, s)).toBe(401);
    // The CLI's admin path revokes through the same store method.
    const fresh = ((await rotated.json()) as { key: string }).key;
    const again = await signInWithKey(h, fresh);
    h.store.apiKeys.revoke(keyIdOf(fresh), h.clock.now());
    expect(await alive(h, again)).toBe(401);
  });

  it('lists the open sessions (how each was opened, which is this one) and ends one by id', async () => {
    const h = setup();
    const byKey = await signInWithKey(h, h.key);
    await h.clock.advance(60_000);
    const byLink = await h.signIn();
    const listed = await h.page('GET', '/auth/sessions', byLink);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const { data } = (await listed.json()) as { data: Listed[] };
    expect(data.map((d) => [d.signed_in_with, d.key_prefix, d.current])).toEqual([
      ['key', h.key.slice(0, 'sp_'.length + 24 + 1 + 4), false],
      ['link', null, true],
    ]);
    expect(JSON.stringify(data)).not.toContain(byKey.cookie);
    const other = data[0] as Listed;
    // Ending needs the CSRF token, like every unsafe request of a session.
    expect((await h.page('DELETE', `/auth/sessions/${other.id}`, { cookie: byLink.cookie })).status).toBe(403);
    expect(await alive(h, byKey)).toBe(200);
    expect((await h.page('DELETE', `/auth/sessions/${other.id}`, byLink)).status).toBe(204);
    expect(await alive(h, byKey)).toBe(401);
    expect((await h.page('DELETE', `/auth/sessions/${other.id}`, byLink)).status).toBe(404);
    // Another user's session is as unknown as a made-up id.
    const stranger = h.addUser('stranger@example.com');
    const theirs = await h.signIn(stranger.user.id);
    const theirId = (((await (await h.page('GET', '/auth/sessions', theirs)).json()) as { data: Listed[] }).data[0] as Listed).id;
    expect((await h.page('DELETE', `/auth/sessions/${theirId}`, byLink)).status).toBe(404);
    expect(await alive(h, theirs)).toBe(200);
    // Ending this session signs out: the cookie is cleared.
    const self = await h.page('DELETE', `/auth/sessions/${(data[1] as Listed).id}`, byLink);
    expect(self.status).toBe(204);
    expect(self.headers.getSetCookie().some((c) => c.startsWith('sp_session=;'))).toBe(true);
    expect(await alive(h, byLink)).toBe(401);
    expect((await h.app.request('/auth/sessions')).status).toBe(401);
  });
});
