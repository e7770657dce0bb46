import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectTwitter } from '../../../src/platforms/twitter/connect';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: TwitterSimulator;
let server: SimServer;
const baseUrl = (h: string) => server.baseUrl(h === 'x.com' ? X_HOST : h);

beforeEach(async () => {
  clock = new ManualClock();
  sim = createTwitterSimulator({ clock });
  server = await serveSimulators([{ host: X_HOST, app: sim.app }]);
});
afterEach(() => server.close());

describe('socialpub connect twitter', () => {
  it('runs OAuth 2.0 with PKCE through a loopback redirect and stores both tokens with the expiry X gave', async () => {
    const io = fakeIO(['client-abc', '']);
    const connections = fakeConnections();
    await connectTwitter({ userId: 'usr_1', auth: 'oauth2', redirectUri: 'http://127.0.0.1:0/callback' }, io, { connections, clock, baseUrl });

    const authorize = new URL(io.opened[0]!);
    expect(authorize.pathname).toMatch(/\/i\/oauth2\/authorize$/);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-abc',
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      code_challenge_method: 'S256',
    });
    const exchange = sim.log.to('POST', '/2/oauth2/token')[0]!;
    expect(exchange.body).toMatchObject({ grant_type: 'authorization_code', client_id: 'client-abc', redirect_uri: authorize.searchParams.get('redirect_uri'), code_verifier: '…' });
    expect(exchange.status).toBe(200);
    const { input } = connections.saved[0]!;
    expect(input).toMatchObject({ mode: 'live', accountId: sim.defaultUser.id, accountName: 'sandbox_x', tokenExpiresAt: clock.now() + 7200_000, meta: { auth: 'oauth2', username: 'sandbox_x' } });
    expect(input.secrets!.access_token).toMatch(/^xat-/);
    expect(input.secrets!.refresh_token).toMatch(/^xrt-/);
    expect(io.printed.at(-1)).toBe('Connected X account @sandbox_x.');
  });

  it('accepts pasted OAuth 1.0a user tokens after a signed check', async () => {
    const keys = { consumerKey: 'ck', consumerSecret: 'cs', token: 'ut', tokenSecret: 'uts' };
    sim.registerOAuth1(keys);
    const connections = fakeConnections();
    await connectTwitter({ userId: 'usr_1', auth: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', accessToken: 'ut', accessTokenSecret: 'uts' }, fakeIO(), { connections, clock, baseUrl });
    expect(connections.saved[0]!.input).toMatchObject({ accountName: 'sandbox_x', tokenExpiresAt: null, secrets: { consumer_key: 'ck', oauth_token: 'ut' }, meta: { auth: 'oauth1' } });
    await expect(connectTwitter({ userId: 'usr_1', auth: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', accessToken: 'ut', accessTokenSecret: 'wrong' }, fakeIO(), { connections, clock, baseUrl })).rejects.toThrow(
      /X refused the credentials \(401\)/,
    );
  });

  it('refuses an authorization code older than 30 seconds and spends each code once', async () => {
    const res = await fetch(`${server.baseUrl(X_HOST)}/i/oauth2/authorize?response_type=code&client_id=c&redirect_uri=http://127.0.0.1:9/cb&state=s&scope=tweet.read&code_challenge=x&code_challenge_method=plain`, { redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const exchange = () =>
      fetch(`${server.baseUrl(X_HOST)}/2/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ code, grant_type: 'authorization_code', client_id: 'c', redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: 'x' }),
      });
    await clock.advance(31_000);
    expect((await exchange()).status).toBe(400);
  });
});
