import { describe, expect, it } from 'vitest';
import { blueskyTokenRefresher } from '../../../src/platforms/bluesky/session';
import type { Credentials } from '../../../src/platforms/adapter';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { AddressGuard } from '../../../src/net/address-guard';
import { ManualClock } from '../../../src/util/clock';
import { useCleanups } from '../../support/cleanups';
import { useBlueskySimulator } from './use-bluesky-simulator';

const defer = useCleanups();
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const guard = new AddressGuard({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });

async function world() {
  forgetRefreshes();
  const clock = new ManualClock(T0);
  const w = await useBlueskySimulator(defer, { clock });
  const login = async (password = 'sandbox-app-password'): Promise<Credentials> => {
    const res = await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'frank.bsky.social', password: 'sandbox-app-password' }) });
    const s = (await res.json()) as { accessJwt: string; refreshJwt: string; did: string; handle: string };
    return { connectionId: `con_${Math.random()}`, mode: 'live', accountId: s.did, accountName: s.handle, pageId: null, pageName: null, secrets: { access_token: s.accessJwt, refresh_token: s.refreshJwt, app_password: password }, tokenExpiresAt: null, refreshExpiresAt: null, tokenObtainedAt: T0, meta: { did: s.did, handle: s.handle, pds: 'https://pds.frank.example' } };
  };
  return { ...w, clock, login, deps: { baseUrl: () => w.pdsUrl, signal: new AbortController().signal, clock } };
}

describe('the Bluesky token refresher', () => {
  it('rotates the session with refreshSession, keeping the chain alive', async () => {
    const w = await world();
    const creds = await w.login();
    const r = blueskyTokenRefresher(guard);
    expect(r.applies(creds)).toBe(true);
    expect(r.minAgeMs).toBe(86_400_000);
    const update = await r.refresh(creds, w.deps);
    expect(update.secrets.refresh_token).not.toBe(creds.secrets.refresh_token);
    expect(update.tokenExpiresAt).toBe(T0 + 2 * 3_600_000);
    expect(update.refreshExpiresAt).toBe(T0 + 90 * 86_400_000);
  });

  it('opens a new session from the app password when the chain is broken, and gives up for good only when the app password is refused', async () => {
    const w = await world();
    const r = blueskyTokenRefresher(guard);
    const spent = await w.login();
    await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${spent.secrets.refresh_token}` } });
    const renewed = await r.refresh(spent, w.deps);
    expect(renewed.secrets.access_token).toMatch(/^ey/);
    expect(w.sim.log.requests.at(-1)!.path).toBe('/xrpc/com.atproto.server.createSession');

    const revoked = await w.login('revoked-password');
    await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${revoked.secrets.refresh_token}` } });
    const err = await r.refresh(revoked, w.deps).catch((e: unknown) => e);
    expect((err as Error).message).toBe('Bluesky refused the app password (AuthenticationRequired): Invalid identifier or password');
    expect(r.isTransient(err)).toBe(false);
  });

  it('keeps the connection when the PDS cannot be reached for now', async () => {
    const w = await world();
    const creds = await w.login();
    const offline = blueskyTokenRefresher(new AddressGuard({ resolve: async () => Promise.reject(new Error('EAI_AGAIN')) }));
    const err = await offline.refresh(creds, w.deps).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^The Bluesky PDS cannot be reached: could not resolve pds\.frank\.example/);
    expect(offline.isTransient(err)).toBe(true);
    const refused = blueskyTokenRefresher(new AddressGuard());
    const bad = { ...creds, connectionId: 'con_private', meta: { ...creds.meta, pds: 'https://192.168.1.10' } };
    const err2 = await refused.refresh(bad, w.deps).catch((e: unknown) => e);
    expect((err2 as Error).message).toMatch(/^The Bluesky PDS is refused: refused to fetch from 192\.168\.1\.10/);
    expect(refused.isTransient(err2)).toBe(false);
  });
});
