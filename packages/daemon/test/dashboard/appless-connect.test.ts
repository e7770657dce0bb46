import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/net/address-guard';
import type { DidDocument, IdentityResolver } from '../../src/platforms/bluesky/identity';
import { createMastodonSimulator, MASTODON_HOST } from '../../src/platforms/mastodon/sim/simulator';
import { ManualClock } from '../../src/util/clock';
import { errorOf } from '../http/harness';
import { serveSimulators } from '../platforms/shared/harness';
import { useBlueskySimulator } from '../platforms/bluesky/use-bluesky-simulator';
import { useCleanups } from '../support/cleanups';
import { API, dashboardHarness } from './fixture';

/**
 * The dashboard's live connect for the networks that need no app of the person's own (issue
 * 38, item 6): Bluesky with a handle and an app password (connected at once), Mastodon with
 * its server (socialpub registers its app there and answers that server's consent page).
 */
const defer = useCleanups();
let cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

describe('POST /connections/{platform}/authorize without an app', () => {
  it('connects Bluesky at once from the handle and an app password, sealed, and names a missing field', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 10));
    const w = await useBlueskySimulator(defer, { clock });
    const made = await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'alice.example', password: 'sandbox-app-password' }) });
    const did = ((await made.json()) as { did: string }).did;
    const identity: IdentityResolver = {
      handleToDid: async (handle) => (handle === 'alice.example' ? did : null),
      didDocument: async (d): Promise<DidDocument | null> => (d === did ? { id: did, alsoKnownAs: ['at://alice.example'], service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://pds.alice.example' }] } : null),
    };
    const guard = new AddressGuard({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    const h = dashboardHarness({ clock, deps: { connectDeps: { baseUrl: () => w.pdsUrl, identity, guard } as never } });
    cleanup.push(h.remove);
    const s = await h.signIn();

    const missing = await h.page('POST', `${API}/connections/bluesky/authorize`, s, { body: { handle: 'alice.example' } });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).details).toEqual([{ path: 'app_password', message: 'required: app password' }]);

    const res = await h.page('POST', `${API}/connections/bluesky/authorize`, s, { body: { handle: 'alice.example', app_password: 'sandbox-app-password' } });
    expect(res.status).toBe(200);
    const flow = (await res.json()) as { status: string; authorize_url: string | null; connection: { platform: string; account_name: string; sandbox: boolean; status: string } };
    expect(flow.status).toBe('connected');
    expect(flow.authorize_url).toBeNull();
    expect(flow.connection).toMatchObject({ platform: 'bluesky', sandbox: false, status: 'active' });
    expect(h.store.credentials.credentialsFor(h.user.id, 'bluesky')?.secrets.app_password).toBe('sandbox-app-password');
    expect(JSON.stringify(flow)).not.toContain('sandbox-app-password');

    const wrong = await h.page('POST', `${API}/connections/bluesky/authorize`, s, { body: { handle: 'alice.example', app_password: 'wrong-one' } });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toContain('app password');
  });

  it("registers socialpub on the Mastodon server given and answers that server's consent page, with no client id", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 10));
    const sim = createMastodonSimulator({ clock });
    const server = await serveSimulators([{ host: MASTODON_HOST, app: sim.app }]);
    cleanup.push(() => server.close());
    const h = dashboardHarness({ clock, deps: { connectDeps: { baseUrl: server.baseUrl, guard: null } as never } });
    cleanup.push(h.remove);
    const s = await h.signIn();

    const none = await h.page('POST', `${API}/connections/mastodon/authorize`, s, { body: {} });
    expect((await errorOf(none)).details).toEqual([{ path: 'server', message: 'required: server' }]);

    const res = await h.page('POST', `${API}/connections/mastodon/authorize`, s, { body: { server: 'https://mastodon.social' } });
    expect(res.status).toBe(200);
    const flow = (await res.json()) as { status: string; authorize_url: string; redirect_uri: string };
    expect(flow.status).toBe('authorizing');
    const authorize = new URL(flow.authorize_url);
    expect(authorize.pathname).toBe('/mastodon.social/oauth/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost/connect/callback');
    expect(sim.log.to('POST', '/api/v1/apps')[0]!.body).toMatchObject({ client_name: 'socialpub', redirect_uris: ['http://localhost/connect/callback'] });
    // The app is kept for the next connect to that server.
    expect(h.store.oauthApps.get('mastodon', 'https://mastodon.social')).not.toBeNull();
  });
});
