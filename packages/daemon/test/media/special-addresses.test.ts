import { describe, expect, it } from 'vitest';
import { blockedHostName, classifyAddress, defaultAddressCheck, METADATA_ADDRESSES, type AddressVerdict } from '../../src/net/address-policy';

/**
 * One row per entry of IANA's IPv4 and IPv6 Special-Purpose Address Registries (as of
 * 2025), with an address inside it and how media fetching judges it. Entries IANA marks
 * globally reachable outside IETF protocol space (AS112, AMT in IPv4) stay public; the
 * forms that carry an IPv4 address are judged by that address.
 */
const IPV4_REGISTRY: [entry: string, address: string, verdict: AddressVerdict][] = [
  ['0.0.0.0/8 "this network"', '0.1.2.3', 'reserved'],
  ['0.0.0.0/32 "this host on this network"', '0.0.0.0', 'reserved'],
  ['10.0.0.0/8 private-use', '10.20.30.40', 'private'],
  ['100.64.0.0/10 shared address space', '100.127.255.254', 'cgnat'],
  ['127.0.0.0/8 loopback', '127.8.9.10', 'loopback'],
  ['169.254.0.0/16 link local', '169.254.10.20', 'link_local'],
  ['172.16.0.0/12 private-use', '172.31.255.1', 'private'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.100', 'reserved'],
  ['192.0.0.0/29 IPv4 service continuity prefix', '192.0.0.2', 'reserved'],
  ['192.0.0.8/32 IPv4 dummy address', '192.0.0.8', 'reserved'],
  ['192.0.0.9/32 port control protocol anycast', '192.0.0.9', 'reserved'],
  ['192.0.0.10/32 TURN anycast', '192.0.0.10', 'reserved'],
  ['192.0.0.170/32 NAT64/DNS64 discovery', '192.0.0.170', 'reserved'],
  ['192.0.0.171/32 NAT64/DNS64 discovery', '192.0.0.171', 'reserved'],
  ['192.0.2.0/24 documentation (TEST-NET-1)', '192.0.2.55', 'reserved'],
  ['192.31.196.0/24 AS112-v4 (globally reachable)', '192.31.196.1', null],
  ['192.52.193.0/24 AMT (globally reachable)', '192.52.193.1', null],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', '192.88.99.1', 'reserved'],
  ['192.168.0.0/16 private-use', '192.168.200.1', 'private'],
  ['192.175.48.0/24 direct delegation AS112 (globally reachable)', '192.175.48.1', null],
  ['198.18.0.0/15 benchmarking', '198.19.0.1', 'reserved'],
  ['198.51.100.0/24 documentation (TEST-NET-2)', '198.51.100.7', 'reserved'],
  ['203.0.113.0/24 documentation (TEST-NET-3)', '203.0.113.9', 'reserved'],
  ['240.0.0.0/4 reserved', '250.1.2.3', 'reserved'],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', 'reserved'],
];

const IPV6_REGISTRY: [entry: string, address: string, verdict: AddressVerdict][] = [
  ['::1/128 loopback', '::1', 'loopback'],
  ['::/128 unspecified', '::', 'reserved'],
  ['::ffff:0:0/96 IPv4-mapped (private inside)', '::ffff:10.1.2.3', 'private'],
  ['::ffff:0:0/96 IPv4-mapped (public inside)', '::ffff:8.8.8.8', null],
  ['64:ff9b::/96 IPv4-IPv6 translation (loopback inside)', '64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::/96 IPv4-IPv6 translation (public inside)', '64:ff9b::808:808', null],
  ['64:ff9b:1::/48 local-use translation (loopback inside)', '64:ff9b:1::7f00:1', 'loopback'],
  ['64:ff9b:1::/48 local-use translation (public inside: still a local network)', '64:ff9b:1::808:808', 'private'],
  ['100::/64 discard-only', '100::1', 'reserved'],
  ['100:0:0:1::/64 dummy IPv6 prefix', '100:0:0:1::5', 'reserved'],
  ['2001::/23 IETF protocol assignments', '2001:100::1', 'reserved'],
  ['2001::/32 Teredo', '2001:0:4136:e378::1', 'reserved'],
  ['2001:1::1/128 port control protocol anycast', '2001:1::1', 'reserved'],
  ['2001:1::2/128 TURN anycast', '2001:1::2', 'reserved'],
  ['2001:1::3/128 DNS-SD service registration anycast', '2001:1::3', 'reserved'],
  ['2001:2::/48 benchmarking', '2001:2::9', 'reserved'],
  ['2001:3::/32 AMT', '2001:3::1', 'reserved'],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::1', 'reserved'],
  ['2001:10::/28 deprecated ORCHID', '2001:10::1', 'reserved'],
  ['2001:20::/28 ORCHIDv2', '2001:20::1', 'reserved'],
  ['2001:30::/28 drone remote ID entity tags', '2001:30::1', 'reserved'],
  ['2001:db8::/32 documentation', '2001:db8::1', 'reserved'],
  ['2002::/16 6to4 (loopback inside)', '2002:7f00:1::1', 'loopback'],
  ['2002::/16 6to4 (public inside)', '2002:808:808::1', null],
  ['2620:4f:8000::/48 direct delegation AS112 (globally reachable)', '2620:4f:8000::1', null],
  ['3fff::/20 documentation', '3fff:1::1', 'reserved'],
  ['5f00::/16 segment routing (SRv6) SIDs', '5f00::1', 'reserved'],
  ['fc00::/7 unique local', 'fd12:3456::1', 'private'],
  ['fe80::/10 link-local unicast', 'fe80::abcd', 'link_local'],
];

/** Not (or no longer) in the registry, but never a media host. */
const IPV6_OTHER: [what: string, address: string, verdict: AddressVerdict][] = [
  ['::/96 IPv4-compatible (deprecated), loopback inside', '::7f00:1', 'loopback'],
  ['::/96 IPv4-compatible, dotted, metadata inside', '::169.254.169.254', 'metadata'],
  ['::ffff:0:0:0/96 IPv4-translated', '::ffff:0:a00:1', 'private'],
  ['fec0::/10 site-local (deprecated)', 'fec0::1', 'private'],
  ['ff00::/8 multicast', 'ff02::1', 'multicast'],
  ['outside 2000::/3, unassigned', '4000::1', 'reserved'],
  ['global unicast', '2606:4700::1111', null],
];

describe('the IANA special-purpose address registries, one entry each', () => {
  it.each(IPV4_REGISTRY)('IPv4 %s: %s is %s', (_entry, address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });
  it.each(IPV6_REGISTRY)('IPv6 %s: %s is %s', (_entry, address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });
  it.each(IPV6_OTHER)('IPv6 %s: %s is %s', (_entry, address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });
  it('passes an ordinary public IPv4 address', () => {
    expect(classifyAddress('93.184.216.34')).toBeNull();
  });
});

describe('cloud metadata endpoints', () => {
  const METADATA: [who: string, address: string][] = [
    ['AWS, GCP, Azure, Oracle, DigitalOcean instance metadata', '169.254.169.254'],
    ['AWS instance metadata over IPv6', 'fd00:ec2::254'],
    ['AWS Route 53 resolver', '169.254.169.253'],
    ['AWS Route 53 resolver over IPv6', 'fd00:ec2::253'],
    ['AWS time sync', '169.254.169.123'],
    ['AWS time sync over IPv6', 'fd00:ec2::123'],
    ['AWS ECS task metadata and credentials', '169.254.170.2'],
    ['EKS Pod Identity agent', '169.254.170.23'],
    ['EKS Pod Identity agent over IPv6', 'fd00:ec2::23'],
    ['GCP metadata over IPv6', 'fd20:ce::254'],
    ['Azure WireServer', '168.63.129.16'],
    ['Alibaba Cloud metadata', '100.100.100.200'],
    ['Oracle Cloud legacy metadata', '192.0.0.192'],
  ];
  const allowPrivate = defaultAddressCheck(true);

  it.each(METADATA)('%s (%s) stays refused with private networks allowed', (_who, address) => {
    expect(classifyAddress(address)).toBe('metadata');
    expect(allowPrivate(address)).toBe('metadata');
  });

  it.each(METADATA.filter(([, a]) => !a.includes(':')))('%s (%s) stays refused in every IPv6 form that carries it', (_who, address) => {
    const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
    const hi = ((a << 8) | b).toString(16);
    const lo = ((c << 8) | d).toString(16);
    for (const form of [`::ffff:${address}`, `::ffff:${hi}:${lo}`, `::${hi}:${lo}`, `64:ff9b::${hi}:${lo}`, `64:ff9b:1::${hi}:${lo}`, `2002:${hi}:${lo}::1`]) {
      expect([form, allowPrivate(form)]).toEqual([form, 'metadata']);
    }
  });

  it('lists every one of them, and nothing public besides Azure WireServer', () => {
    expect([...METADATA_ADDRESSES].sort()).toEqual(METADATA.map(([, a]) => a).sort());
  });

  it.each([
    ['metadata.google.internal', 'GCP'],
    ['metadata.goog', 'GCP'],
    ['METADATA.GOOGLE.INTERNAL.', 'GCP, any case, trailing dot'],
    ['metadata', 'GCP, Azure short name'],
    ['instance-data', 'AWS'],
    ['instance-data.ec2.internal', 'AWS'],
    ['metadata.azure.com', 'Azure'],
    ['metadata.tencentyun.com', 'Tencent Cloud'],
  ])('refuses the name %s (%s) even with private networks allowed', (name) => {
    expect(blockedHostName(name)).toBe('metadata');
  });
});
