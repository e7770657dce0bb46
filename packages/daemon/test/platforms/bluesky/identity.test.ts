import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultIdentityResolver, resolveIdentity } from '../../../src/platforms/bluesky/identity';
import { AddressGuard } from '../../../src/net/address-guard';
import { useCleanups } from '../../support/cleanups';

const defer = useCleanups();
const DID = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz';

/** A PLC directory on loopback (private addresses allowed for it here); host names resolve to nothing. */
async function world(txt: Record<string, string[][]>) {
  const docs: Record<string, unknown> = {
    [`/${DID}`]: { id: DID, alsoKnownAs: ['at://alice.example.com'], service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://pds.example.com/' }] },
  };
  const server = createServer((req, res) => {
    const doc = docs[req.url ?? ''];
    if (!doc) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  defer(() => new Promise<void>((r) => server.close(() => r())));
  const guard = new AddressGuard({
    allowPrivate: true,
    resolve: async (host) => {
      throw new Error(`no such host ${host}`);
    },
  });
  const lookups: string[] = [];
  const resolver = defaultIdentityResolver({
    guard,
    plcUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    resolveTxt: async (name) => {
      lookups.push(name);
      const r = txt[name];
      if (!r) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return r;
    },
  });
  return { resolver, lookups };
}

describe('handle and DID resolution', () => {
  it('resolves a handle by its _atproto TXT record and the DID by the PLC directory, to the PDS origin', async () => {
    const { resolver, lookups } = await world({ '_atproto.alice.example.com': [['did=', DID]] });
    const who = await resolveIdentity('@Alice.Example.com', resolver, new AbortController().signal);
    expect(who).toEqual({ handle: 'alice.example.com', did: DID, pds: 'https://pds.example.com' });
    expect(lookups).toEqual(['_atproto.alice.example.com']);
  });

  it('takes no DID from a TXT record that names two, and none when the well-known fallback cannot be fetched', async () => {
    const { resolver } = await world({ '_atproto.bob.example.com': [[`did=${DID}`], ['did=did:plc:aaaaaaaaaaaaaaaaaaaaaaaa']] });
    expect(await resolver.handleToDid('bob.example.com', new AbortController().signal)).toBeNull();
    await expect(resolveIdentity('bob.example.com', resolver, new AbortController().signal)).rejects.toThrow('the handle bob.example.com resolves to no account');
  });

  it('answers null for a DID the directory does not know', async () => {
    const { resolver } = await world({});
    expect(await resolver.didDocument('did:plc:zzzzzzzzzzzzzzzzzzzzzzzz', new AbortController().signal)).toBeNull();
  });
});
