import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { blockedHostName, defaultAddressCheck, isIpLiteral, parseIPv4, parseIPv6, type AddressCheck } from './address-policy';
import { MediaError } from './media-error';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. Injectable, so tests can make "public" names. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Where an operator allows media from private addresses: appended to a refusal that setting would lift. */
export const MEDIA_ALLOW_PRIVATE_HINT =
  'to fetch media from private and loopback addresses (a network you trust), set "media_allow_private": true in config.json in the daemon\'s data dir, or SOCIALPUB_MEDIA_ALLOW_PRIVATE=1, and restart the daemon';

export interface AddressGuardOptions {
  /** Allow private, loopback, link-local and CGNAT addresses (never metadata). Default false. */
  allowPrivate?: boolean;
  /** Says how to allow what allowPrivate would (default: MEDIA_ALLOW_PRIVATE_HINT); added to those refusals, never to metadata's. */
  allowHint?: string;
  /** Replaces the address check (default: `defaultAddressCheck(allowPrivate)`). */
  check?: AddressCheck;
  /** Default: the system resolver (getaddrinfo). */
  resolve?: HostResolver;
}

/**
 * Turns a URL's host into the one address to connect to, refusing private targets
 * before any connection exists. The caller connects to exactly the address returned
 * (never resolving again), so DNS cannot answer differently between check and connect.
 */
export class AddressGuard {
  readonly #allowPrivate: boolean;
  readonly #check: AddressCheck;
  readonly #resolve: HostResolver;
  readonly #allowHint: string;

  constructor(options: AddressGuardOptions = {}) {
    this.#allowPrivate = options.allowPrivate ?? false;
    this.#allowHint = options.allowHint ?? MEDIA_ALLOW_PRIVATE_HINT;
    this.#check = options.check ?? defaultAddressCheck(this.#allowPrivate);
    this.#resolve = options.resolve ?? systemResolver;
  }

  /** `hostname` as URL.hostname gives it (IPv6 in brackets). */
  async resolveHost(hostname: string): Promise<ResolvedAddress> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (isIpLiteral(bare)) {
      const address = canonicalAddress(bare);
      this.#refuse(hostname, address);
      return { address, family: isIP(address) === 6 ? 6 : 4 };
    }
    const nameVerdict = blockedHostName(bare);
    if (nameVerdict === 'metadata' || (nameVerdict && !this.#allowPrivate)) {
      throw new MediaError('private_address', `refused to fetch from ${hostname}: ${describe(nameVerdict)} host name${this.#howToAllow(nameVerdict)}`);
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.#resolve(bare);
    } catch (err) {
      throw new MediaError('fetch_failed', `could not resolve ${hostname}: ${(err as Error).message}`, { cause: err });
    }
    if (addresses.length === 0) throw new MediaError('fetch_failed', `could not resolve ${hostname}: no addresses`);
    // Every address must pass: a name with one public and one private address is a rebinding trick.
    for (const a of addresses) this.#refuse(hostname, a.address);
    return addresses[0] as ResolvedAddress;
  }

  #refuse(hostname: string, address: string): void {
    const verdict = this.#check(address);
    if (verdict) {
      throw new MediaError('private_address', `refused to fetch from ${hostname}: it resolves to a ${describe(verdict)} address${this.#howToAllow(verdict)}`);
    }
  }

  /** `; to fetch … set …` where allowPrivate would lift the refusal (not for metadata, which nothing lifts). */
  #howToAllow(verdict: string): string {
    return verdict === 'metadata' || this.#allowPrivate ? '' : `; ${this.#allowHint}`;
  }
}

function describe(verdict: string): string {
  return verdict.replace('_', '-').replace('cgnat', 'carrier-grade NAT');
}

/** The address in the form net.connect accepts (inet_aton forms become dotted quads). */
function canonicalAddress(text: string): string {
  if (isIP(text)) return text;
  const v6 = parseIPv6(text);
  if (v6) return v6.map((h) => h.toString(16)).join(':');
  const v4 = parseIPv4(text) as number;
  return [24, 16, 8, 0].map((s) => Math.floor(v4 / 2 ** s) % 256).join('.');
}
