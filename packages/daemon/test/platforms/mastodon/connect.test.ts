import { createServer } from 'node:net';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../../src/net/address-guard';
import { connectMastodon } from '../../../src/platforms/mastodon/connect';
import { createMastodonSimulator, MASTODON_HOST, type MastodonSimulator } from '../../../src/platforms/mastodon/sim/simulator';
import type { OAuthApp } from '../../../src/store/oauth-apps';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

let clock: ManualClock;
let sim: MastodonSimulator;
let server: SimServer;

/** A free loopback port for the redirect (a Mastodon app registers its redirect URI exactly). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function appStore() {
  const apps = new Map<string, OAuthApp>();
  return { apps, get: (p: string, o: string) => apps.get(`${p} ${o}`) ?? null, save: (p: string, o: string, app: OAuthApp) => void apps.set(`${p} ${o}`, app) };
}

beforeEach(async () => {
  clock = new ManualClock();
  // A server of 5,000 characters and 6 media: its own limits, not the defaults.
  sim = createMastodonSimulator({ clock, limits: { characters: 5000, max_media_attachments: 6 } });
  server = await serveSimulators([{ host: MASTODON_HOST, app: sim.app }]);
});
afterEach(() => server.close());

describe('socialpub connect mastodon', () => {
  it("registers an app on the server, runs OAuth with PKCE, and keeps the account with the server's own limits", async () => {
    const io = fakeIO();
    const connections = fakeConnections();
    const oauthApps = appStore();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    await connectMastodon({ userId: 'usr_1', server: 'https://mastodon.social', redirectUri }, io, { connections, clock, baseUrl: server.baseUrl, guard: null, oauthApps });

    const registered = sim.log.to('POST', '/api/v1/apps')[0]!;
    expect(registered.body).toEqual({ client_name: 'socialpub', redirect_uris: [redirectUri], scopes: 'read:accounts read:statuses write:statuses write:media' });
    const authorize = new URL(io.opened[0]!);
    expect(authorize.pathname).toBe('/mastodon.social/oauth/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: 'code', redirect_uri: redirectUri, scope: 'read:accounts read:statuses write:statuses write:media', code_challenge_method: 'S256' });
    expect(sim.log.to('POST', '/oauth/token')[0]!.status).toBe(200);
    const { input } = connections.saved[0]!;
    expect(input).toMatchObject({ mode: 'live', accountId: sim.defaultAccount.id, accountName: '@sandbox@mastodon.social', tokenExpiresAt: null, meta: { server: 'https://mastodon.social', username: 'sandbox', version: '4.5.0' } });
    expect(input.meta!.limits).toMatchObject({ characters: 5000, max_media_attachments: 6, characters_reserved_per_url: 23, poll_max_options: 4 });
    expect(input.secrets).toMatchObject({ client_id: expect.any(String), client_secret: expect.any(String), access_token: expect.any(String) });
    expect(io.printed.at(-1)).toBe('Connected Mastodon account @sandbox@mastodon.social (statuses up to 5000 characters, 6 media).');

    // Connecting again to the same server reuses its app.
    await connectMastodon({ userId: 'usr_1', server: 'mastodon.social', redirectUri }, fakeIO(), { connections, clock, baseUrl: server.baseUrl, guard: null, oauthApps });
    expect(sim.log.to('POST', '/api/v1/apps')).toHaveLength(1);
    expect(connections.saved).toHaveLength(2);
    expect(checkTraffic(sim.log.requests)).toEqual([]);
  });

  it('refuses a server that is not https, carries a path, or resolves to a private address, naming --server, before any request', async () => {
    const connections = fakeConnections();
    const deps = { connections, clock, baseUrl: server.baseUrl };
    await expect(connectMastodon({ userId: 'u', server: 'http://mastodon.social' }, fakeIO(), { ...deps, guard: null })).rejects.toThrow('--server: http://mastodon.social is not https; Mastodon servers are reached over https only');
    await expect(connectMastodon({ userId: 'u', server: 'https://mastodon.social/@ana' }, fakeIO(), { ...deps, guard: null })).rejects.toThrow('--server: give the server alone (https://mastodon.social), without a path');
    await expect(connectMastodon({ userId: 'u', server: 'https://10.0.0.5' }, fakeIO(), deps)).rejects.toThrow(/^--server: refused 10\.0\.0\.5: it resolves to a private address$/);
    const resolvesPrivate = new AddressGuard({ resolve: async () => [{ address: '192.168.1.20', family: 4 }] });
    await expect(connectMastodon({ userId: 'u', server: 'https://social.example.org' }, fakeIO(), { ...deps, guard: resolvesPrivate })).rejects.toThrow(/^--server: refused social\.example\.org: it resolves to a private address$/);
    expect(sim.log.requests).toEqual([]);
    expect(connections.saved).toEqual([]);
  });

  it('refuses a server that is not Mastodon with a clear error, and stores nothing', async () => {
    const other = new Hono();
    other.get('/api/v2/instance', (c) => c.html('<h1>Not Found</h1>', 404));
    const plain = new Hono();
    plain.get('/api/v2/instance', (c) => c.json({ name: 'some other API' }));
    const elsewhere = await serveSimulators([{ host: 'blog.example.org', app: other }, { host: 'api.example.org', app: plain }]);
    try {
      const connections = fakeConnections();
      const deps = { connections, clock, baseUrl: elsewhere.baseUrl, guard: null };
      await expect(connectMastodon({ userId: 'u', server: 'https://blog.example.org' }, fakeIO(), deps)).rejects.toThrow(
        '--server: https://blog.example.org is not a Mastodon server (GET /api/v2/instance answered 404: Not Found; Mastodon 4.0 or later is needed)',
      );
      await expect(connectMastodon({ userId: 'u', server: 'https://api.example.org' }, fakeIO(), deps)).rejects.toThrow('--server: https://api.example.org is not a Mastodon server (its /api/v2/instance has no version and status configuration)');
      expect(connections.saved).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses an any-port loopback redirect, which a Mastodon app cannot register', async () => {
    await expect(connectMastodon({ userId: 'u', server: 'https://mastodon.social', redirectUri: 'http://127.0.0.1:0/callback' }, fakeIO(), { connections: fakeConnections(), clock, baseUrl: server.baseUrl, guard: null })).rejects.toThrow(/^--redirect-uri: /);
  });
});
