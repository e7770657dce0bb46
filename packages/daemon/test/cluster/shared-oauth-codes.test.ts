import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaSimulator } from '../../src/platforms/meta/sim/simulator';
import { ManualClock } from '../../src/util/clock';
import { useTempDirs } from '../support/temp-dirs';
import { openSimulatorPair, othersSettled, type SandboxApp, type SimulatorPair } from './support/simulator-pair';

/**
 * Several daemons over one PostgreSQL database, each with its own simulators: a browser's
 * connect flow can meet the consent page of one daemon's simulators and have the code
 * exchanged by another daemon (the proxy or the callback landed there). The code must be
 * found there, and exchanged once wherever the exchanges land (docs/platforms/simulators.md
 * "Several daemons, one sandbox world"). Two simulator processes are two stores (two
 * connections) and two sandbox apps here; B never waits for A's writes to settle, so
 * nothing here rides on catching up on sandbox_state.
 */

const tempDir = useTempDirs();
const clock = new ManualClock();
let pair: SimulatorPair;
let a: SandboxApp;
let b: SandboxApp;

beforeAll(async () => {
  pair = await openSimulatorPair(tempDir('sp-shared-codes-'), clock);
  ({ a, b } = pair);
});
afterAll(() => pair.close());

const CALLBACK = 'http://127.0.0.1:9/callback';
const form = (fields: Record<string, string>) => ({ 'content-type': 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() });

/** The consent page at `app`: the code in its redirect to CALLBACK. */
async function consent(app: typeof a, url: string): Promise<string> {
  const res = await app.request(url);
  expect(res.status, await res.clone().text()).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(CALLBACK);
  return location.searchParams.get('code')!;
}

interface Exchange {
  status: number;
  body: Record<string, unknown>;
}
async function exchange(app: { request: typeof a.request }, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Exchange> {
  const { body, ...type } = form(fields);
  const res = await app.request(path, { method: 'POST', headers: { ...type, ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Flow {
  name: string;
  authorize: string;
  /** The token request for `code`. */
  token: (code: string) => [path: string, fields: Record<string, string>, headers?: Record<string, string>];
  /** What the platform answers a code already exchanged. */
  refused: Record<string, unknown>;
}

const enc = encodeURIComponent;
const flows: Flow[] = [
  {
    name: 'X',
    authorize: `/api.x.com/i/oauth2/authorize?response_type=code&client_id=x-client&redirect_uri=${enc(CALLBACK)}&state=s&scope=${enc('tweet.read tweet.write users.read offline.access')}&code_challenge=verifier-x&code_challenge_method=plain`,
    token: (code) => ['/api.x.com/2/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: 'verifier-x', client_id: 'x-client' }],
    refused: { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' },
  },
  {
    name: 'YouTube',
    authorize: `/oauth2.googleapis.com/o/oauth2/v2/auth?client_id=g-client&response_type=code&redirect_uri=${enc(CALLBACK)}&scope=${enc('https://www.googleapis.com/auth/youtube.upload')}&state=s`,
    token: (code) => ['/oauth2.googleapis.com/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'g-client', client_secret: 'g-secret' }],
    refused: { error: 'invalid_grant', error_description: 'Malformed auth code.' },
  },
  {
    name: 'TikTok',
    authorize: `/open.tiktokapis.com/v2/auth/authorize/?client_key=tt-client&response_type=code&redirect_uri=${enc(CALLBACK)}&state=s&scope=${enc('user.info.basic,video.publish')}`,
    token: (code) => ['/open.tiktokapis.com/v2/oauth/token/', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_key: 'tt-client', client_secret: 'tt-secret' }],
    refused: { error: 'invalid_grant', error_description: 'Authorization code is expired or invalid.' },
  },
  {
    name: 'LinkedIn',
    authorize: `/www.linkedin.com/oauth/v2/authorization?response_type=code&client_id=li-client&redirect_uri=${enc(CALLBACK)}&state=s&scope=${enc('openid profile w_member_social')}`,
    token: (code) => ['/www.linkedin.com/oauth/v2/accessToken', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'li-client', client_secret: 'li-secret' }],
    refused: { error: 'invalid_request', error_description: 'Unable to retrieve access token: authorization code not found' },
  },
  {
    name: 'Pinterest',
    authorize: `/www.pinterest.com/oauth/?response_type=code&client_id=pin-client&redirect_uri=${enc(CALLBACK)}&state=s&scope=${enc('boards:read,pins:read,pins:write')}`,
    token: (code) => ['/api.pinterest.com/v5/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK }, { authorization: `Basic ${Buffer.from('pin-client:pin-secret').toString('base64')}` }],
    refused: { code: 1, message: 'Invalid authorization code.' },
  },
];

describe("OAuth codes with several daemons' simulators over one PostgreSQL database", () => {
  it.each(flows)('$name: a code handed out by daemon A is exchanged at daemon B, once: A then refuses it', async (flow) => {
    const code = await consent(a, flow.authorize);
    const first = await exchange(b, ...flow.token(code));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(typeof first.body.access_token).toBe('string');
    // The same code again, now at the daemon that handed it out: spent.
    const again = await exchange(a, ...flow.token(code));
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject(flow.refused);
    // And at B, which exchanged it.
    expect((await exchange(b, ...flow.token(code))).status).toBe(400);
  });

  it('Mastodon: the app registered and consented through A, the code exchanged at B, once', async () => {
    const registered = await a.request('/mastodon.social/api/v1/apps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'socialpub', redirect_uris: CALLBACK, scopes: 'read write' }) });
    const app = (await registered.json()) as { client_id: string; client_secret: string };
    expect(registered.status).toBe(200);
    // The app itself reaches B as every other entry does (caught up on).
    await othersSettled(pair.probe);
    const code = await consent(a, `/mastodon.social/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${enc(CALLBACK)}&scope=${enc('read write')}`);
    const token = (fields: Record<string, string> = {}) => ({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: app.client_secret, ...fields });
    const first = await exchange(b, '/mastodon.social/oauth/token', token());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.scope).toBe('read write');
    const again = await exchange(a, '/mastodon.social/oauth/token', token());
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it("Meta (Threads): the dialog's code handed out by A's simulator is exchanged at B's, once", async () => {
    // Meta's dialog is not served (the connect flow's browser step is simulated by authorize()): the two simulators over the two stores.
    // Each made in a turn of its own (two stores in one thread must not write the same rows in one turn: one would wait on the other).
    const turnEnd = () => new Promise((resolve) => setImmediate(resolve));
    const metaA = new MetaSimulator({ clock, store: pair.first.store });
    await turnEnd();
    const metaB = new MetaSimulator({ clock, store: pair.second.store });
    await turnEnd();
    for (const m of [metaA, metaB]) m.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
    const code = metaA.state.authorize({ platform: 'threads', appId: '1234', redirectUri: CALLBACK, accountId: '17841400000000001' });
    // The dialog's redirect is answered once the code is committed (the turn's group commit), as every simulator answer is.
    await turnEnd();
    const fields = { client_id: '1234', client_secret: 'app-secret', grant_type: 'authorization_code', code, redirect_uri: CALLBACK };
    const first = await exchange(metaB.app, '/graph.threads.net/oauth/access_token', fields);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.user_id).toBe('17841400000000001');
    // The bare simulator app does not hold its answer for the commit (the sandbox app does): the turn ends first.
    await turnEnd();
    const again = await exchange(metaA.app, '/graph.threads.net/oauth/access_token', fields);
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('Matching code was not found or was already used');
  });

  it('an expired code is refused at the other daemon too, and swept when the next one is handed out', async () => {
    const flow = flows[0]!;
    const code = await consent(a, flow.authorize);
    await clock.advance(30_001);
    const late = await exchange(b, ...flow.token(code));
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject(flow.refused);
    const fresh = await consent(b, flow.authorize);
    const kept = pair.first.db.prepare<[], { code: string }>("SELECT code FROM sandbox_codes WHERE simulator = 'x' ORDER BY code").all();
    expect(kept.map((r) => r.code)).toEqual([fresh]);
    expect((await exchange(a, ...flow.token(fresh))).status).toBe(200);
  });
});
