import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectTiktok } from '../../../src/platforms/tiktok/connect';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../../src/platforms/tiktok/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: TiktokSimulator;
let server: SimServer;
const baseUrl = (h: string) => server.baseUrl(h === 'www.tiktok.com' ? TIKTOK_HOST : h);

beforeEach(async () => {
  clock = new ManualClock();
  sim = createTiktokSimulator({ clock });
  server = await serveSimulators([{ host: TIKTOK_HOST, app: sim.app }]);
});
afterEach(() => server.close());

describe('socialpub connect tiktok', () => {
  it('runs Login Kit with PKCE and stores the rotating pair with both lifetimes and the creator handle', async () => {
    const io = fakeIO(['ck-1', 'cs-1']);
    const connections = fakeConnections();
    await connectTiktok({ userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback/' }, io, { connections, clock, baseUrl });
    const authorize = new URL(io.opened[0]!);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ client_key: 'ck-1', scope: 'user.info.basic,video.publish,video.list', response_type: 'code', code_challenge_method: 'S256' });
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[0-9a-f]{64}$/);
    expect(sim.log.to('POST', '/v2/oauth/token/')[0]!.body).toMatchObject({ grant_type: 'authorization_code', client_key: 'ck-1', client_secret: '…', code_verifier: '…' });
    expect(connections.saved[0]!.input).toMatchObject({
      accountId: sim.creator.openId,
      accountName: 'sandbox_tiktok',
      tokenExpiresAt: clock.now() + 7200_000,
      refreshExpiresAt: clock.now() + 180 * 86_400_000,
      meta: { username: 'sandbox_tiktok', audited: false },
    });
    expect(io.printed.at(-1)).toMatch(/unaudited app: posts are private/);
  });

  it('supports https web redirect URIs by pasting the address the browser landed on', async () => {
    let landed = '';
    const io = fakeIO(['ck-1', 'cs-1']);
    io.openBrowser = async (url: string) => {
      io.opened.push(url);
      const res = await fetch(url, { redirect: 'manual' });
      landed = res.headers.get('location')!;
    };
    io.prompt = async (q: string) => (q.startsWith('After authorizing') ? landed : ['ck-1', 'cs-1'][q.includes('secret') ? 1 : 0]!);
    const connections = fakeConnections();
    await connectTiktok({ userId: 'usr_1', redirectUri: 'https://example.com/tiktok/callback' }, io, { connections, clock, baseUrl });
    expect(new URL(io.opened[0]!).searchParams.has('code_challenge')).toBe(false);
    expect(connections.saved[0]!.input.secrets!.refresh_token).toMatch(/^rft\./);
  });
});
