import type { LookupFunction } from 'node:net';
import got, { type Got } from 'got';
import type { Credentials } from '../adapter';
import { AddressGuard, type ResolvedAddress } from '../../net/address-guard';

/** The simulated PDS (and entryway) every sandbox connection talks to. */
export const BSKY_HOST = 'bsky.social';
/** Bluesky's video service. */
export const VIDEO_HOST = 'video.bsky.app';

/** A lookup that answers with the one address the guard checked, so DNS cannot change between check and connect. */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
}

/** Where a connection's PDS is and the HTTP client that reaches it. */
export interface PdsAccess {
  url: string;
  http?: Got;
}

/** The PDS's origin from the connection (set at connect time from the account's DID document). */
export function pdsOrigin(credentials: Credentials): URL | null {
  const pds = credentials.meta.pds;
  if (typeof pds !== 'string') return null;
  try {
    return new URL(pds);
  } catch {
    return null;
  }
}

/**
 * How to reach the connection's PDS. Sandbox: the simulator. Live: the PDS named by the
 * account's DID document (any host: self-hosted PDSes work), checked by the SSRF guard
 * (private, loopback and metadata addresses refused) and the connection pinned to the
 * checked address. Throws MediaError(private_address) for a PDS on a private address.
 */
export async function pdsAccess(credentials: Credentials, baseUrl: (host: string) => string, guard: AddressGuard, http?: Got): Promise<PdsAccess> {
  if (credentials.mode === 'sandbox') return { url: baseUrl(BSKY_HOST) };
  const origin = pdsOrigin(credentials);
  if (!origin) throw new Error('the Bluesky connection names no PDS; reconnect with `socialpub connect bluesky`');
  const address = await guard.resolveHost(origin.hostname);
  return { url: baseUrl(origin.host), http: (http ?? got).extend({ dnsLookup: pinnedLookup(address) as never }) };
}

/** The guard adapters use when none is given: public addresses only. */
export const defaultPdsGuard = new AddressGuard();
