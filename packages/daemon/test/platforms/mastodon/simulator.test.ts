import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mastodonSandbox } from '../../../src/platforms/mastodon/sim/sandbox';
import { createMastodonSimulator } from '../../../src/platforms/mastodon/sim/simulator';
import { openDatabase } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { listSandboxPosts, sandboxStore } from '../../support/sandbox-records';

const dir = mkdtempSync(join(tmpdir(), 'sp-mastodon-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const auth = (token: string, more: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...more });
const json = (token: string, body: unknown, more: Record<string, string> = {}) => ({ method: 'POST', headers: auth(token, { 'content-type': 'application/json', ...more }), body: JSON.stringify(body) });

describe('the Mastodon simulator', () => {
  it("answers Mastodon's error shapes: 401 without a token, 422 for validation, 404 for a missing status", async () => {
    const sim = createMastodonSimulator({ clock: new ManualClock(0) });
    const r401 = await sim.app.request('/api/v1/statuses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"x"}' });
    expect([r401.status, await r401.json()]).toEqual([401, { error: 'The access token is invalid' }]);
    const blank = await sim.app.request('/api/v1/statuses', json('sandbox-a', { status: '  ' }));
    expect([blank.status, await blank.json()]).toEqual([422, { error: "Validation failed: Text can't be blank" }]);
    const both = await sim.app.request('/api/v1/statuses', json('sandbox-a', { status: 'x', media_ids: ['1'], poll: { options: ['a', 'b'], expires_in: 600 } }));
    expect(both.status).toBe(422);
    const missing = await sim.app.request('/api/v1/statuses/42', { headers: auth('sandbox-a') });
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'Record not found' }]);
    const reply = await sim.app.request('/api/v1/statuses', json('sandbox-a', { status: 'hi', in_reply_to_id: '42' }));
    expect([reply.status, await reply.json()]).toEqual([404, { error: 'The post you are trying to reply to does not appear to exist.' }]);
  });

  it('counts every call in its window with X-RateLimit-* and answers 429 once 30 media uploads in 30 minutes are spent', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const sim = createMastodonSimulator({ clock });
    const upload = () => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(10)], { type: 'image/png' }), 'a.png');
      return sim.app.request('/api/v2/media', { method: 'POST', headers: auth('sandbox-a'), body: form });
    };
    for (let i = 0; i < 30; i++) expect((await upload()).status).toBe(200);
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too many requests' });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(new Date(Date.UTC(2026, 0, 1) + 30 * 60_000).toISOString());
    await clock.advance(30 * 60_000);
    expect((await upload()).status).toBe(200);
  });

  it('approves /oauth/authorize at once and gives a token for the code once, with the PKCE verifier', async () => {
    const sim = createMastodonSimulator({ clock: new ManualClock(0) });
    const app = (await (await sim.app.request('/api/v1/apps', json('', { client_name: 'test', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: 'read write' }))).json()) as { client_id: string; client_secret: string };
    const verifier = 'a-verifier-of-enough-length-for-pkce-0123456789';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = await sim.app.request(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&scope=write:statuses&state=s1&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(authorize.status).toBe(302);
    const to = new URL(authorize.headers.get('location')!);
    expect(to.searchParams.get('state')).toBe('s1');
    const exchange = (v: string) => sim.app.request('/oauth/token', json('', { grant_type: 'authorization_code', code: to.searchParams.get('code'), client_id: app.client_id, client_secret: app.client_secret, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: v }));
    const wrong = await exchange('another verifier');
    expect([wrong.status, ((await wrong.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const token = (await (await exchange(verifier)).json()) as { access_token: string; scope: string; token_type: string };
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'write:statuses' });
    expect((await exchange(verifier)).status).toBe(400);
    // write:statuses only: reading the account is outside the grant.
    expect((await sim.app.request('/api/v1/accounts/verify_credentials', { headers: auth(token.access_token) })).status).toBe(403);
    expect((await sim.app.request('/api/v1/statuses', json(token.access_token, { status: 'with my own token' }))).status).toBe(200);
  });

  it('keeps one account per sandbox connection, and its statuses, keys and ids across a restart, each status recorded with its key in one transaction', async () => {
    const db = openDatabase(join(dir, 'socialpub.db'));
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = mastodonSandbox({ store: sandboxStore(db), clock });
    const me = async (sim: typeof first, token: string) => ((await (await sim.app.request('/mastodon.social/api/v1/accounts/verify_credentials', { headers: auth(token) })).json()) as { id: string; username: string });
    const ana = await me(first, 'sandbox_at_ana.secret');
    const bob = await me(first, 'sandbox_at_bob.secret');
    expect(ana.id).not.toBe(bob.id);
    const post = async (sim: typeof first) => (await (await sim.app.request('/mastodon.social/api/v1/statuses', json('sandbox_at_ana.secret', { status: 'once' }, { 'idempotency-key': 'k1' }))).json()) as { id: string };
    const made = await post(first);
    const idempotency = db.prepare("SELECT count(*) FROM sandbox_state WHERE simulator = 'mastodon' AND kind = 'idempotency'").pluck();
    expect(idempotency.get()).toBe(1);
    expect(listSandboxPosts(db, { platform: 'mastodon' }).map((p) => p.postId)).toEqual([made.id]);

    const second = mastodonSandbox({ store: sandboxStore(db), clock });
    expect((await me(second, 'sandbox_at_ana.secret')).id).toBe(ana.id);
    expect((await post(second)).id).toBe(made.id);
    const next = (await (await second.app.request('/mastodon.social/api/v1/statuses', json('sandbox_at_ana.secret', { status: 'after the restart' }))).json()) as { id: string };
    expect(BigInt(next.id)).toBeGreaterThan(BigInt(made.id));
    expect(listSandboxPosts(db, { platform: 'mastodon' })).toHaveLength(2);
    db.close();
  });
});
