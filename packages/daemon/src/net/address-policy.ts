import ipaddr from 'ipaddr.js';

/**
 * Which addresses and host names media fetching may reach.
 *
 * Everything here is pure: parsing and range tables. Ranges come from ipaddr.js's named
 * special ranges (kept current with IANA's registries), plus our rules and metadata list. The guard (`address-guard.ts`)
 * applies it to every hop's resolved address before a connection is made.
 */

/** Why an address or name is refused; null when it is public. */
export type AddressVerdict = 'private' | 'loopback' | 'link_local' | 'cgnat' | 'multicast' | 'metadata' | 'reserved' | null;

/**
 * Decides whether a resolved IP address may be connected to. Injectable, so tests can
 * declare a loopback test server "public".
 */
export type AddressCheck = (ip: string) => AddressVerdict;

// Cloud metadata endpoints are refused even when private networks are allowed: a
// trusted LAN is no reason to hand instance credentials to a URL someone pasted. No
// maintained package lists them, so this list is ours; each has a test.
export const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  '169.254.169.254', // AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack instance metadata
  'fd00:ec2::254', // AWS instance metadata over IPv6
  '169.254.169.253', // AWS Route 53 resolver
  'fd00:ec2::253',
  '169.254.169.123', // AWS time sync
  'fd00:ec2::123',
  '169.254.170.2', // AWS ECS task metadata and credentials
  '169.254.170.23', // EKS Pod Identity agent
  'fd00:ec2::23',
  'fd20:ce::254', // GCP metadata over IPv6
  '168.63.129.16', // Azure WireServer (a public address, answered by the host)
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud legacy metadata
]);

/** Names that mean "this machine" or a cloud metadata service, whatever DNS says. */
const BLOCKED_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
]);
const BLOCKED_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa', '.lan', '.intranet', '.corp', '.svc'];
/** Metadata services by name (GCP, AWS, Azure, Tencent); the others only have addresses, which DNS answers are checked against. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

/**
 * Parses an IPv4 address the way inet_aton does (ipaddr.js): 1 to 4 parts, each decimal,
 * octal (leading 0) or hex (0x). `2130706433`, `0177.1` and `0x7f.0.0.1` are all 127.0.0.1.
 * Returns the 32-bit value, or null when the text is not an IPv4 address.
 */
export function parseIPv4(text: string): number | null {
  if (!ipaddr.IPv4.isValid(text)) return null;
  return ipaddr.IPv4.parse(text).toByteArray().reduce((n, b) => n * 256 + b, 0);
}

/** Parses an IPv6 address (brackets and zone id allowed, dotted IPv4 tail allowed) into 8 hextets. */
export function parseIPv6(text: string): number[] | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.IPv6.isValid(bare)) return null;
  return ipaddr.IPv6.parse(bare).parts.slice();
}

/** How each named range of ipaddr.js is judged; a name not here (a newer ipaddr.js) is refused. */
const V4_RANGES: Readonly<Record<string, AddressVerdict>> = {
  unicast: null,
  unspecified: 'reserved', // 0.0.0.0/8; 0.0.0.0 reaches the local host on Linux
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'cgnat',
  private: 'private',
  reserved: 'reserved', // IETF protocol assignments, documentation, benchmarking, 240/4
  as112: null, // globally reachable (IANA)
  amt: null, // globally reachable (IANA)
};

const V6_RANGES: Readonly<Record<string, AddressVerdict>> = {
  unicast: null,
  unspecified: 'reserved',
  loopback: 'loopback',
  linkLocal: 'link_local',
  multicast: 'multicast',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  discard: 'reserved',
  segmentRouting: 'reserved',
  reserved: 'reserved', // documentation (2001:db8::/32, 3fff::/20)
  as112v6: null, // 2620:4f:8000::/48, globally reachable (2001:4:112::/48 is caught by 2001::/23 first)
};

/** Our own IPv6 rules, checked before ipaddr.js's names. */
const IETF_PROTOCOL_ASSIGNMENTS = ipaddr.parseCIDR('2001::/23'); // Teredo, ORCHID, AMT, benchmarking...: never a media host; Teredo tunnels anywhere
const DUMMY_PREFIX = ipaddr.parseCIDR('100:0:0:1::/64'); // RFC 9780, not in ipaddr.js yet
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The metadata addresses in ipaddr.js's canonical text, whatever form they are written in. */
const METADATA_KEYS = new Set([...METADATA_ADDRESSES].map((a) => ipaddr.parse(a).toString()));

function classify4(address: ipaddr.IPv4): AddressVerdict {
  if (METADATA_KEYS.has(address.toString())) return 'metadata';
  const name = address.range();
  return name in V4_RANGES ? (V4_RANGES[name] as AddressVerdict) : 'reserved';
}

/** The IPv4 address in the last 32 bits (mapped, translated, compatible, NAT64 /96 forms). */
const tail4 = (b: number[]) => new ipaddr.IPv4(b.slice(12, 16));

function classify6(address: ipaddr.IPv6): AddressVerdict {
  if (METADATA_KEYS.has(new ipaddr.IPv6(address.parts).toString())) return 'metadata'; // without a zone id
  const bytes = address.toByteArray();
  if (address.match(IETF_PROTOCOL_ASSIGNMENTS) || address.match(DUMMY_PREFIX)) return 'reserved';
  // Forms that carry an IPv4 address are judged by that address.
  if (address.match(NAT64_LOCAL_USE)) return classify4(tail4(bytes)) ?? 'private'; // a local network's translator, never public
  const name = address.range();
  switch (name) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // 64:ff9b::a.b.c.d
      return classify4(tail4(bytes));
    case '6to4': // 2002:aabb:ccdd::
      return classify4(new ipaddr.IPv4(bytes.slice(2, 6)));
  }
  if (name in V6_RANGES && V6_RANGES[name] !== null) return V6_RANGES[name] as AddressVerdict;
  // ::a.b.c.d, IPv4-compatible (deprecated): what the IPv4 address is, else unassigned.
  if (bytes.slice(0, 12).every((b) => b === 0)) return classify4(tail4(bytes)) ?? 'reserved';
  // Outside 2000::/3 nothing is assigned for unicast: refuse what IANA has not handed out.
  if (!address.match(GLOBAL_UNICAST)) return 'reserved';
  return name in V6_RANGES ? (V6_RANGES[name] as AddressVerdict) : 'reserved';
}

/** Classifies an IP address in any textual form; a string that is no IP address is 'reserved'. */
export const classifyAddress: AddressCheck = (ip) => {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (ipaddr.IPv6.isValid(bare)) return classify6(ipaddr.IPv6.parse(bare));
  if (ipaddr.IPv4.isValid(bare)) return classify4(ipaddr.IPv4.parse(bare));
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
