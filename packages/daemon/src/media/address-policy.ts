/**
 * Which addresses and host names media fetching may reach.
 *
 * Everything here is pure: parsing and range tables. The guard (`address-guard.ts`)
 * applies it to every hop's resolved address before a connection is made.
 */

/** Why an address or name is refused; null when it is public. */
export type AddressVerdict = 'private' | 'loopback' | 'link_local' | 'cgnat' | 'multicast' | 'metadata' | 'reserved' | null;

/**
 * Decides whether a resolved IP address may be connected to. Injectable, so tests can
 * declare a loopback test server "public".
 */
export type AddressCheck = (ip: string) => AddressVerdict;

type Range4 = readonly [base: string, bits: number, verdict: Exclude<AddressVerdict, null>];

// Cloud metadata endpoints are refused even when private networks are allowed: a
// trusted LAN is no reason to hand instance credentials to a URL someone pasted.
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '169.254.169.253', '100.100.100.200', '192.0.0.192']);
const METADATA_V6 = new Set(['fd00:ec2::254', 'fd00:ec2::23']);

const RANGES_V4: readonly Range4[] = [
  ['0.0.0.0', 8, 'reserved'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'reserved'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255 broadcast
];

/** Names that mean "this machine" or a cloud metadata service, whatever DNS says. */
const BLOCKED_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
]);
const BLOCKED_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa', '.lan', '.intranet', '.corp'];
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'metadata.azure.com', 'instance-data', 'instance-data.ec2.internal']);

/**
 * Parses an IPv4 address the way inet_aton does: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x). `2130706433`, `0177.1` and `0x7f.0.0.1` are all 127.0.0.1.
 * Returns the 32-bit value, or null when the text is not an IPv4 address.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  // The last part fills the remaining bytes: a.b.c.d, a.b.(16 bits), a.(24 bits), (32 bits).
  const last = nums.pop() as number;
  if (nums.some((n) => n > 255)) return null;
  if (last >= 2 ** (8 * (4 - nums.length))) return null;
  let value = 0;
  nums.forEach((n, i) => (value += n * 2 ** (8 * (3 - i))));
  return value + last;
}

/** Parses an IPv6 address (brackets and zone id allowed, dotted IPv4 tail allowed) into 8 hextets. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  const lastPart = s.slice(lastColon + 1);
  if (lastPart.includes('.')) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) becomes its two hextets.
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(lastPart)) return null;
    const v4 = parseIPv4(lastPart);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  if (!head || !rest) return null;
  const given = head.length + rest.length;
  if (halves.length === 1) return given === 8 ? head : null;
  if (given > 7) return null;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest];
}

function inRange4(value: number, base: string, bits: number): boolean {
  const b = parseIPv4(base) as number;
  const size = 2 ** (32 - bits);
  return Math.floor(value / size) === Math.floor(b / size);
}

function classify4(value: number): AddressVerdict {
  const dotted = [24, 16, 8, 0].map((s) => Math.floor(value / 2 ** s) % 256).join('.');
  if (METADATA_V4.has(dotted)) return 'metadata';
  for (const [base, bits, verdict] of RANGES_V4) if (inRange4(value, base, bits)) return verdict;
  return null;
}

const METADATA_V6_KEYS = new Set([...METADATA_V6].map((a) => (parseIPv6(a) as number[]).join(':')));

function classify6(h: number[]): AddressVerdict {
  const key = h.join(':');
  if (METADATA_V6_KEYS.has(key)) return 'metadata';
  const embedded = (hi: number, lo: number) => (h[hi] as number) * 65536 + (h[lo] as number);
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'reserved'; // ::
  if (zeros(0, 7) && h[7] === 1) return 'loopback'; // ::1
  // Forms that carry an IPv4 address: judged by that address.
  if (zeros(0, 5) && h[5] === 0xffff) return classify4(embedded(6, 7)) ?? null; // ::ffff:a.b.c.d mapped
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return classify4(embedded(6, 7)) ?? null; // ::ffff:0:a.b.c.d translated
  if (zeros(0, 6)) return classify4(embedded(6, 7)) ?? 'reserved'; // ::a.b.c.d compatible (deprecated)
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return classify4(embedded(6, 7)); // NAT64
  if (h[0] === 0x2002) return classify4(embedded(1, 2)); // 6to4
  const first = h[0] as number;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'link_local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x100 && zeros(1, 4)) return 'reserved'; // 100::/64 discard
  if (first === 0x2001 && h[1] === 0xdb8) return 'reserved'; // documentation
  if (first === 0x2001 && h[1] === 0) return 'reserved'; // Teredo tunnels can reach anything
  return null;
}

/** Classifies an IP address in any textual form; a string that is no IP address is 'reserved'. */
export const classifyAddress: AddressCheck = (ip) => {
  const v6 = parseIPv6(ip);
  if (v6) return classify6(v6);
  const v4 = parseIPv4(ip);
  if (v4 !== null) return classify4(v4);
  return 'reserved';
};

/** True when `host` (a name, not an address) must never be resolved. */
export function blockedHostName(host: string): 'loopback' | 'metadata' | 'private' | null {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (BLOCKED_NAMES.has(name) || name.endsWith('.localhost')) return 'loopback';
  if (BLOCKED_SUFFIXES.some((s) => name.endsWith(s)) || !name.includes('.')) return 'private';
  return null;
}

/** True when the host of a URL is an IP literal (after the URL parser's normalisation). */
export function isIpLiteral(host: string): boolean {
  return parseIPv6(host) !== null || parseIPv4(host) !== null;
}

/**
 * The default check. With private networks allowed, only metadata endpoints stay
 * refused; otherwise every non-public range is.
 */
export function defaultAddressCheck(allowPrivate: boolean): AddressCheck {
  return (ip) => {
    const verdict = classifyAddress(ip);
    if (allowPrivate && verdict !== 'metadata') return null;
    return verdict;
  };
}
