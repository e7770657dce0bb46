import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectBluesky } from '../../../src/platforms/bluesky/connect';
import type { DidDocument, IdentityResolver } from '../../../src/platforms/bluesky/identity';
import { AddressGuard } from '../../../src/net/address-guard';
import { openDatabase } from '../../../src/store/database';
import { createStore } from '../../../src/store/store';
import { ManualClock } from '../../../src/util/clock';
import { SecretBox } from '../../../src/util/secrets';
import { useCleanups } from '../../support/cleanups';
import { fakeConnections, fakeIO } from '../shared/harness';
import { useBlueskySimulator } from './use-bluesky-simulator';

const defer = useCleanups();
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);

/** An account on a self-hosted PDS (`pds.alice.example`, a public address the simulator stands in for). */
async function world(pds = 'https://pds.alice.example') {
  const clock = new ManualClock(T0);
  const w = await useBlueskySimulator(defer, { clock });
  // The account exists on the PDS (made by its first session, as the simulator does).
  const res = await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'alice.example', password: 'sandbox-app-password' }) });
  const did = ((await res.json()) as { did: string }).did;
  const lookups: string[] = [];
  const identity: IdentityResolver = {
    handleToDid: async (handle) => (lookups.push(handle), handle === 'alice.example' ? did : null),
    didDocument: async (d): Promise<DidDocument | null> =>
      d === did ? { id: did, alsoKnownAs: ['at://alice.example'], service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pds }] } : null,
  };
  const guard = new AddressGuard({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  const connections = fakeConnections();
  const deps = { connections, clock, baseUrl: () => w.pdsUrl, identity, guard };
  return { ...w, clock, did, deps, connections, lookups };
}

describe('socialpub connect bluesky', () => {
  it('resolves the handle to its DID and PDS, opens a session there with the app password and keeps both sealed', async () => {
    const w = await world();
    const dir = mkdtempSync(join(tmpdir(), 'sp-bsky-connect-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const db = openDatabase(join(dir, 'socialpub.db'));
    defer(() => db.close());
    const store = createStore(db, { secrets: SecretBox.fromKeyFile(join(dir, 'secret.key')), clock: w.clock });
    const user = store.users.ensure('me@example.com', T0).user;
    const io = fakeIO(['@Alice.Example', 'sandbox-app-password']);
    const info = await connectBluesky({ userId: user.id }, io, { ...w.deps, connections: store.connections });
    expect(info).toMatchObject({ platform: 'bluesky', mode: 'live', accountId: w.did, accountName: 'alice.example', meta: { auth: 'app-password', handle: 'alice.example', did: w.did, pds: 'https://pds.alice.example' } });
    expect(info.tokenExpiresAt).toBe(T0 + 2 * 3_600_000);
    const creds = store.credentials.credentialsFor(user.id, 'bluesky')!;
    expect(creds.secrets.app_password).toBe('sandbox-app-password');
    expect(creds.secrets.access_token).toMatch(/^ey/);
    // Sealed at rest: neither the app password nor the tokens appear in the database file's rows.
    const raw = JSON.stringify(db.prepare('SELECT * FROM connections').all());
    expect(raw).not.toContain('sandbox-app-password');
    expect(raw).not.toContain(creds.secrets.refresh_token!);
    expect(io.printed.at(-1)).toBe(`Connected Bluesky account @alice.example (${w.did}) on https://pds.alice.example.`);
  });

  it('names the field and stores nothing: an unknown handle, a wrong app password, a PDS on a private address', async () => {
    const w = await world();
    await expect(connectBluesky({ userId: 'u1', handle: 'nobody.example', appPassword: 'x' }, fakeIO(), w.deps)).rejects.toThrow(
      'handle: the handle nobody.example resolves to no account (no _atproto DNS record and no /.well-known/atproto-did)',
    );
    await expect(connectBluesky({ userId: 'u1', handle: 'not a handle', appPassword: 'x' }, fakeIO(), w.deps)).rejects.toThrow('handle: "not a handle" is not a Bluesky handle');
    await expect(connectBluesky({ userId: 'u1', handle: 'alice.example', appPassword: 'wrong-one' }, fakeIO(), w.deps)).rejects.toThrow(
      'app password: https://pds.alice.example refused it for alice.example (AuthenticationRequired: Invalid identifier or password)',
    );
    const priv = await world('https://10.0.0.7');
    const before = priv.sim.log.requests.length;
    await expect(connectBluesky({ userId: 'u1', handle: 'alice.example', appPassword: 'sandbox-app-password' }, fakeIO(), priv.deps)).rejects.toThrow(
      /^handle: the PDS of alice\.example \(https:\/\/10\.0\.0\.7\) is refused: refused to fetch from 10\.0\.0\.7/,
    );
    expect(priv.sim.log.requests.length).toBe(before);
    expect([...w.connections.saved, ...priv.connections.saved]).toEqual([]);
  });

  it('refuses a DID document that does not name the handle back', async () => {
    const w = await world();
    const liar = { ...w.deps, identity: { ...w.deps.identity, didDocument: async () => ({ alsoKnownAs: ['at://someone.else'], service: [] }) } };
    await expect(connectBluesky({ userId: 'u1', handle: 'alice.example', appPassword: 'sandbox-app-password' }, fakeIO(), liar)).rejects.toThrow(
      /^handle: the DID document of did:plc:[a-z2-7]+ does not name alice\.example back/,
    );
    expect(w.connections.saved).toEqual([]);
  });
});
