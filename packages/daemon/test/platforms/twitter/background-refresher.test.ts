import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenRefreshLoop, type RefreshableConnections } from '../../../src/connect/token-refresh-loop';
import { twitterTokenRefresher } from '../../../src/platforms/twitter/refresh-token';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import type { Credentials, TokenUpdate } from '../../../src/platforms/adapter';
import { ManualClock } from '../../../src/util/clock';
import { serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: TwitterSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  sim = createTwitterSimulator({ clock });
  server = await serveSimulators([{ host: X_HOST, app: sim.app }]);
  forgetRefreshes();
});
afterEach(() => server.close());

function store(creds: Credentials) {
  const saved: TokenUpdate[] = [];
  const expired: string[] = [];
  const connections: RefreshableConnections = {
    list: () => [{ id: creds.connectionId, platform: 'twitter', mode: 'live', status: expired.length ? 'expired' : 'active', tokenExpiresAt: creds.tokenExpiresAt, tokenObtainedAt: creds.tokenObtainedAt }],
    credentialsById: () => creds,
    saveTokens: (_id, u) => {
      saved.push(u);
      Object.assign(creds.secrets, Object.fromEntries(Object.entries(u.secrets).filter(([, v]) => v)));
      creds.tokenObtainedAt = u.tokenObtainedAt ?? creds.tokenObtainedAt;
      creds.tokenExpiresAt = u.tokenExpiresAt ?? creds.tokenExpiresAt;
    },
    markExpired: (_id, reason) => void expired.push(reason),
  };
  return { connections, saved, expired };
}

function creds(refreshToken: string): Credentials {
  return {
    connectionId: 'con_bg',
    mode: 'live',
    accountId: null,
    accountName: null,
    pageId: null,
    pageName: null,
    secrets: { access_token: 'old', refresh_token: refreshToken, client_id: 'client-1' },
    tokenExpiresAt: clock.now() - 1000,
    refreshExpiresAt: null,
    tokenObtainedAt: clock.now() - 13 * 3_600_000,
    meta: {},
  };
}

describe('the X background refresher', () => {
  it('rotates an idle connection\'s tokens and stores the new refresh token', async () => {
    const first = sim.issueTokens('client-1');
    const c = creds(first.refresh_token!);
    const s = store(c);
    const refresher = new TokenRefreshLoop({ connections: s.connections, clock, refreshers: [twitterTokenRefresher], baseUrl: server.baseUrl });
    expect(await refresher.runOnce()).toEqual({ refreshed: ['con_bg'], expired: [], deferred: [] });
    expect(s.saved[0]!.secrets.refresh_token).not.toBe(first.refresh_token);
    expect(sim.refreshTokenUsed(first.refresh_token!)).toBe(true);
    // Young tokens are left alone until they are 12 hours old.
    expect(await refresher.runOnce()).toEqual({ refreshed: [], expired: [], deferred: [] });
  });

  it('dates the new tokens by the refresher\'s injected clock, not the system clock', async () => {
    await clock.advance(400 * 86_400_000);
    const c = creds(sim.issueTokens('client-1').refresh_token!);
    const s = store(c);
    const refresher = new TokenRefreshLoop({ connections: s.connections, clock, refreshers: [twitterTokenRefresher], baseUrl: server.baseUrl });
    expect(await refresher.runOnce()).toEqual({ refreshed: ['con_bg'], expired: [], deferred: [] });
    expect(s.saved[0]!.tokenObtainedAt).toBe(clock.now());
    expect(s.saved[0]!.tokenExpiresAt).toBe(clock.now() + 7200 * 1000);
  });

  it('marks the connection expired when X refuses, and keeps it on a transient failure', async () => {
    sim.log.inject({ method: 'POST', path: '/2/oauth2/token', kind: 'respond', status: 502, body: 'bad gateway', headers: { 'content-type': 'text/plain' } });
    const c = creds('xrt-unknown');
    const s = store(c);
    const refresher = new TokenRefreshLoop({ connections: s.connections, clock, refreshers: [twitterTokenRefresher], baseUrl: server.baseUrl });
    expect(await refresher.runOnce()).toEqual({ refreshed: [], expired: [], deferred: ['con_bg'] });
    expect(await refresher.runOnce()).toEqual({ refreshed: [], expired: ['con_bg'], deferred: [] });
    expect(s.expired[0]).toMatch(/Value passed for the token was invalid/);
  });

  it('leaves OAuth 1.0a connections alone', () => {
    const c = creds('x');
    expect(twitterTokenRefresher.applies({ ...c, secrets: { oauth_token: 't', oauth_token_secret: 's' } })).toBe(false);
    expect(twitterTokenRefresher.applies(c)).toBe(true);
  });
});
