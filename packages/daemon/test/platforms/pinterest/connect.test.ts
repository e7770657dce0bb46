import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectPinterest, PINTEREST_SCOPES } from '../../../src/platforms/pinterest/connect';
import { pinterestTokenRefresher } from '../../../src/platforms/pinterest/refresh-token';
import { createPinterestSimulator, PINTEREST_API_HOST, PINTEREST_WWW_HOST, type PinterestSimulator } from '../../../src/platforms/pinterest/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

let clock: ManualClock;
let sim: PinterestSimulator;
let server: SimServer;
const baseUrl = (h: string) => server.baseUrl(h);
const deps = () => ({ connections: fakeConnections(), clock, baseUrl });

beforeEach(async () => {
  clock = new ManualClock();
  sim = createPinterestSimulator({ clock });
  server = await serveSimulators([
    { host: PINTEREST_API_HOST, app: sim.api },
    { host: PINTEREST_WWW_HOST, app: sim.www },
  ]);
});
afterEach(async () => {
  expect(checkTraffic(sim.log.requests)).toEqual([]);
  await server.close();
});

const boardsOf = () => sim.defaultAccount.boards.map((id) => ({ id, name: sim.board(id)!.name }));

describe('socialpub connect pinterest', () => {
  it('runs OAuth through a loopback redirect, lists the boards and asks which one pins go to', async () => {
    const io = fakeIO(['1484362', 's3cr3t']);
    const asked: Array<{ question: string; labels: string[] }> = [];
    io.choose = async <T,>(question: string, choices: { label: string; value: T }[]) => {
      asked.push({ question, labels: choices.map((c) => c.label) });
      return choices[1]!.value;
    };
    const d = deps();
    await connectPinterest({ userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback' }, io, d);

    const authorize = new URL(io.opened[0]!);
    expect(authorize.pathname).toBe(`/${PINTEREST_WWW_HOST}/oauth/`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: 'code', client_id: '1484362', scope: PINTEREST_SCOPES.join(',') });
    const exchange = sim.log.to('POST', '/v5/oauth/token')[0]!;
    expect(exchange.headers.authorization).toBe('Basic …');
    expect(exchange.body).toEqual({ grant_type: 'authorization_code', code: '…', redirect_uri: authorize.searchParams.get('redirect_uri') });

    const [b1, b2] = boardsOf();
    expect(asked).toEqual([{ question: 'Which Pinterest board?', labels: [`Inspiration (${b1!.id})`, `Products (${b2!.id})`] }]);
    const { input, platform } = d.connections.saved[0]!;
    expect(platform).toBe('pinterest');
    expect(input).toMatchObject({
      mode: 'live',
      accountId: sim.defaultAccount.id,
      accountName: 'Sandbox sandbox_pinner',
      pageId: b2!.id,
      pageName: 'Products',
      tokenExpiresAt: clock.now() + 30 * 86_400_000,
      refreshExpiresAt: clock.now() + 365 * 86_400_000,
      meta: { scopes: PINTEREST_SCOPES, boards: [b1, b2] },
    });
    expect(input.secrets).toMatchObject({ client_id: '1484362', client_secret: 's3cr3t', access_token: expect.stringMatching(/^pina_/), refresh_token: expect.stringMatching(/^pinr_/) });
    expect(io.printed.slice(-2)).toEqual([
      `Connected Pinterest Sandbox sandbox_pinner; pins go to board Products (${b2!.id}) unless a post names another (platform_options.pinterest.board_id).`,
      `Boards: Inspiration (${b1!.id}), Products (${b2!.id})`,
    ]);
  });

  it('takes the board from --board, and refuses one that is not the account\'s, listing the boards', async () => {
    const [b1, b2] = boardsOf();
    const chosen = deps();
    await connectPinterest({ userId: 'u', clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:0/cb', boardId: b1!.id }, fakeIO(), chosen);
    expect(chosen.connections.saved[0]!.input).toMatchObject({ pageId: b1!.id, pageName: 'Inspiration' });
    await expect(connectPinterest({ userId: 'u', clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:0/cb', boardId: '42' }, fakeIO(), deps())).rejects.toThrow(
      `Board 42 is not one of the account's boards: Inspiration (${b1!.id}), Products (${b2!.id})`,
    );
  });

  it('refreshes with the refresh token (the app in HTTP Basic), keeping its expiry; a refused refresh is permanent', async () => {
    const t = sim.issueTokens('c');
    const creds = {
      connectionId: 'con_pin',
      mode: 'live' as const,
      accountId: null,
      accountName: null,
      pageId: null,
      pageName: null,
      secrets: { access_token: t.access_token, refresh_token: t.refresh_token, client_id: 'c', client_secret: 's' },
      tokenExpiresAt: null,
      refreshExpiresAt: null,
      tokenObtainedAt: null,
      meta: {},
    };
    const started = clock.now();
    clock.set(started + 20 * 86_400_000);
    const update = await pinterestTokenRefresher.refresh(creds, { baseUrl, clock });
    expect(update.secrets.refresh_token).toBe(t.refresh_token);
    expect(update.secrets.access_token).not.toBe(t.access_token);
    expect(update.tokenExpiresAt).toBe(clock.now() + 30 * 86_400_000);
    expect(update.refreshExpiresAt).toBe(Math.floor((started + 365 * 86_400_000) / 1000) * 1000);
    await expect(pinterestTokenRefresher.refresh({ ...creds, secrets: { ...creds.secrets, refresh_token: 'pinr_forged' } }, { baseUrl, clock })).rejects.toMatchObject({ permanent: true });
  });
});
