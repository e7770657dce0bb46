import { resolveTxt } from 'node:dns/promises';
import type { AddressGuard } from '../../net/address-guard';
import { HANDLE } from './facets';
import { safeGet } from './safe-get';

/** How a handle becomes a DID and a DID its document (atproto.com/specs/handle, /specs/did). */
export interface IdentityResolver {
  /** The DID the handle claims (DNS TXT `_atproto.<handle>`, else `https://<handle>/.well-known/atproto-did`), or null. */
  handleToDid(handle: string, signal: AbortSignal): Promise<string | null>;
  /** The DID document (did:plc from the PLC directory, did:web from `/.well-known/did.json`), or null when there is none. */
  didDocument(did: string, signal: AbortSignal): Promise<DidDocument | null>;
}

export interface DidDocument {
  id?: string;
  alsoKnownAs?: string[];
  service?: Array<{ id?: string; type?: string; serviceEndpoint?: unknown }>;
}

export const DID = /^did:(plc:[a-z2-7]{24}|web:[a-zA-Z0-9.%-]+(:[a-zA-Z0-9.%-]+)*)$/;

/** The resolver the daemon uses: DNS, then HTTPS through the SSRF-safe fetcher; the PLC directory at `plcUrl`. */
export function defaultIdentityResolver(options: { guard: AddressGuard; plcUrl?: string; resolveTxt?: (name: string) => Promise<string[][]> }): IdentityResolver {
  const txt = options.resolveTxt ?? resolveTxt;
  const plc = (options.plcUrl ?? 'https://plc.directory').replace(/\/+$/, '');
  const getJson = async (url: string, signal: AbortSignal): Promise<unknown> => {
    const res = await safeGet(url, options.guard, signal, 256 * 1024);
    if (res.status !== 200) return null;
    try {
      return JSON.parse(res.bytes.toString('utf8'));
    } catch {
      return null;
    }
  };
  return {
    async handleToDid(handle, signal) {
      try {
        const records = await txt(`_atproto.${handle}`);
        const dids = records.map((r) => r.join('')).filter((r) => r.startsWith('did=')).map((r) => r.slice(4).trim());
        if (dids.length === 1 && DID.test(dids[0]!)) return dids[0]!;
      } catch {
        // No TXT record: the HTTPS well-known method decides.
      }
      try {
        const res = await safeGet(`https://${handle}/.well-known/atproto-did`, options.guard, signal, 2048);
        const did = res.bytes.toString('utf8').trim();
        return res.status === 200 && DID.test(did) ? did : null;
      } catch {
        return null;
      }
    },
    async didDocument(did, signal) {
      if (did.startsWith('did:plc:')) return (await getJson(`${plc}/${did}`, signal)) as DidDocument | null;
      const host = did.slice('did:web:'.length).split(':')[0]!;
      return (await getJson(`https://${decodeURIComponent(host)}/.well-known/did.json`, signal)) as DidDocument | null;
    },
  };
}

/** An account's identity, verified both ways: the handle names the DID, and the DID document names the handle back. */
export interface Identity {
  handle: string;
  did: string;
  /** The PDS's origin (`#atproto_pds`, AtprotoPersonalDataServer). */
  pds: string;
}

export class IdentityError extends Error {
  override name = 'IdentityError';
}

/** Resolves and checks a handle (without a leading @) to its DID and PDS. */
export async function resolveIdentity(rawHandle: string, resolver: IdentityResolver, signal: AbortSignal): Promise<Identity> {
  const handle = rawHandle.trim().replace(/^@/, '').toLowerCase();
  if (!HANDLE.test(handle)) throw new IdentityError(`"${rawHandle}" is not a Bluesky handle (a domain name such as alice.bsky.social)`);
  const did = await resolver.handleToDid(handle, signal);
  if (!did) throw new IdentityError(`the handle ${handle} resolves to no account (no _atproto DNS record and no /.well-known/atproto-did)`);
  const doc = await resolver.didDocument(did, signal);
  if (!doc) throw new IdentityError(`the DID ${did} of ${handle} has no DID document`);
  if (!(doc.alsoKnownAs ?? []).map((a) => a.toLowerCase()).includes(`at://${handle}`)) {
    throw new IdentityError(`the DID document of ${did} does not name ${handle} back (alsoKnownAs), so the handle is not verified`);
  }
  const service = (doc.service ?? []).find((s) => (s.id === '#atproto_pds' || s.id === `${did}#atproto_pds`) && s.type === 'AtprotoPersonalDataServer');
  const endpoint = typeof service?.serviceEndpoint === 'string' ? service.serviceEndpoint : null;
  let url: URL;
  try {
    url = new URL(endpoint ?? '');
  } catch {
    throw new IdentityError(`the DID document of ${did} names no PDS (#atproto_pds)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new IdentityError(`the PDS of ${handle} is not an http(s) URL: ${endpoint}`);
  return { handle, did, pds: url.origin };
}
