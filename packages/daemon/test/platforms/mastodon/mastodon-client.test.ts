import { describe, expect, it } from 'vitest';
import { AddressGuard } from '../../../src/net/address-guard';
import { MastodonClient, MastodonTransportError, PRIVATE_ADDRESS } from '../../../src/platforms/mastodon/mastodon-client';
import type { MastodonSimulator } from '../../../src/platforms/mastodon/sim/simulator';
import type { SimServer } from '../shared/harness';
import { useMastodonSimulator } from './use-mastodon-simulator';

let sim: MastodonSimulator;
let server: SimServer;
useMastodonSimulator((w) => ({ sim, server } = w));

/** The simulator's URL with a host name in place of 127.0.0.1, so the request must look the name up. */
const byName = () => server.baseUrl('mastodon.social').replace('127.0.0.1', 'social.example.org');

describe('the Mastodon client on a live connection', () => {
  it('looks every host name up through the address guard and connects to the address it checked', async () => {
    const guard = new AddressGuard({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const res = await new MastodonClient({ baseUrl: byName(), guard }).request<{ domain: string }>('/api/v2/instance', { method: 'GET' });
    expect(res.body.domain).toBe('mastodon.social');
    expect(sim.log.requests).toHaveLength(1);
  });

  it('refuses a name that resolves to a private address before any connection, as not sent', async () => {
    const guard = new AddressGuard({ resolve: async () => [{ address: '10.1.2.3', family: 4 }] });
    const err = await new MastodonClient({ baseUrl: byName(), guard }).request('/api/v2/instance', { method: 'GET' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MastodonTransportError);
    expect((err as MastodonTransportError).code).toBe(PRIVATE_ADDRESS);
    expect((err as MastodonTransportError).sent).toBe(false);
    expect(sim.log.requests).toEqual([]);
  });
});

