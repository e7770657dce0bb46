import net from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddressGuard, type HostResolver } from '../../src/net/address-guard';
import { classifyAddress, parseIPv4, parseIPv6 } from '../../src/net/address-policy';
import { downloadToFile } from '../../src/media/download';
import { MediaError } from '../../src/net/media-error';
import { resolveSource } from '../../src/media/resolve-source';
import { harness, prepareAndWait, redirect, SAMPLES, send, startServer, tempDir, type TestServer } from './helpers';

/** A fake DNS: names used by the tests, nothing else. */
const fakeDns: Record<string, { address: string; family: 4 | 6 }[]> = {
  'loopback.example.com': [{ address: '127.0.0.1', family: 4 }],
  'rebind.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'v6-loopback.example.com': [{ address: '::1', family: 6 }],
  'mapped.example.com': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'metadata-alias.example.com': [{ address: '169.254.169.254', family: 4 }],
  'lan.example.com': [{ address: '192.168.0.10', family: 4 }],
  'cgnat.example.com': [{ address: '100.64.12.1', family: 4 }],
  'public.example.com': [{ address: '127.0.0.1', family: 4 }],
  // Names resolving to each cloud's metadata address (a DNS record anyone can create).
  'aws.example.com': [{ address: '169.254.169.254', family: 4 }],
  'aws6.example.com': [{ address: 'fd00:ec2::254', family: 6 }],
  'ecs.example.com': [{ address: '169.254.170.2', family: 4 }],
  'eks.example.com': [{ address: '169.254.170.23', family: 4 }],
  'eks6.example.com': [{ address: 'fd00:ec2::23', family: 6 }],
  'gcp6.example.com': [{ address: 'fd20:ce::254', family: 6 }],
  'azure.example.com': [{ address: '168.63.129.16', family: 4 }],
  'alibaba.example.com': [{ address: '100.100.100.200', family: 4 }],
  'oracle.example.com': [{ address: '192.0.0.192', family: 4 }],
  'nat64-local.example.com': [{ address: '64:ff9b:1::a9fe:aa17', family: 6 }],
};
const resolve: HostResolver = async (name) => {
  const found = fakeDns[name];
  if (!found) throw new Error(`ENOTFOUND ${name}`);
  return found;
};

let loop: TestServer;
let lan: TestServer;
let publicServer: TestServer;
const tmp = tempDir();
const connectSpy = vi.spyOn(net.Socket.prototype, 'connect');

beforeAll(async () => {
  loop = await startServer(send(SAMPLES.jpeg, 'image/jpeg'));
  // A second "private" server on another loopback address: the target of redirects.
  lan = await startServer(send(SAMPLES.jpeg, 'image/jpeg'), '127.0.0.2');
  const p = lan.port;
  publicServer = await startServer({
    '/to-127.0.0.2': redirect(`http://127.0.0.2:${p}/secret.jpg`),
    '/to-decimal': redirect(`http://2130706434:${p}/secret.jpg`),
    '/to-localhost': redirect(`http://localhost:${p}/secret.jpg`),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
    '/to-v6': redirect(`http://[::ffff:127.0.0.2]:${p}/secret.jpg`),
    '/to-lan-name': redirect(`http://lan.example.com:${p}/secret.jpg`),
    '/to-nat64-local': redirect(`http://[64:ff9b:1::7f00:2]:${p}/secret.jpg`),
    '/to-compatible': redirect(`http://[::7f00:2]:${p}/secret.jpg`),
    '/to-eks': redirect('http://169.254.170.23/v1/credentials'),
    '/to-eks6': redirect('http://[fd00:ec2::23]/v1/credentials'),
    '/to-eks-name': redirect('http://eks.example.com/v1/credentials'),
    '/to-azure': redirect('http://168.63.129.16/machine?comp=goalstate'),
    '/to-6to4-metadata': redirect('http://[2002:a9fe:a9fe::1]/latest/'),
    '/to-relative-ok': redirect('/photo.jpg'),
    '/photo.jpg': send(SAMPLES.jpeg, 'image/jpeg'),
  });
});
afterEach(() => connectSpy.mockClear());
afterAll(async () => {
  await Promise.all([loop.close(), lan.close(), publicServer.close()]);
  tmp.cleanup();
});

async function attempt(url: string, guard: AddressGuard): Promise<unknown> {
  try {
    await downloadToFile(resolveSource(url), { guard, signal: new AbortController().signal, path: join(tmp.dir, 'out'), headersTimeoutMs: 2000 });
    return 'fetched';
  } catch (err) {
    return err;
  }
}

describe('with private networks not allowed', () => {
  const guard = new AddressGuard({ allowPrivate: false, resolve });
  const P = () => loop.port;
  const forms: [string, () => string][] = [
    ['dotted loopback', () => `http://127.0.0.1:${P()}/a.jpg`],
    ['https loopback', () => `https://127.0.0.1:${P()}/a.jpg`],
    ['short loopback 127.1', () => `http://127.1:${P()}/a.jpg`],
    ['decimal 2130706433', () => `http://2130706433:${P()}/a.jpg`],
    ['octal 017700000001', () => `http://017700000001:${P()}/a.jpg`],
    ['octal dotted 0177.0.0.1', () => `http://0177.0.0.1:${P()}/a.jpg`],
    ['hex 0x7f000001', () => `http://0x7f000001:${P()}/a.jpg`],
    ['hex dotted 0x7f.0x0.0x0.0x1', () => `http://0x7f.0x0.0x0.0x1:${P()}/a.jpg`],
    ['mixed 0x7f.1', () => `http://0x7f.1:${P()}/a.jpg`],
    ['trailing dot 127.0.0.1.', () => `http://127.0.0.1.:${P()}/a.jpg`],
    ['IPv6 ::1', () => `http://[::1]:${P()}/a.jpg`],
    ['IPv6 long loopback', () => `http://[0:0:0:0:0:0:0:1]:${P()}/a.jpg`],
    ['IPv6-mapped dotted', () => `http://[::ffff:127.0.0.1]:${P()}/a.jpg`],
    ['IPv6-mapped hex', () => `http://[::ffff:7f00:1]:${P()}/a.jpg`],
    ['IPv6-mapped long form', () => `http://[0:0:0:0:0:ffff:127.0.0.1]:${P()}/a.jpg`],
    ['NAT64 of loopback', () => `http://[64:ff9b::7f00:1]:${P()}/a.jpg`],
    ['6to4 of loopback', () => `http://[2002:7f00:1::1]:${P()}/a.jpg`],
    ['NAT64 local-use prefix of loopback', () => `http://[64:ff9b:1::7f00:1]:${P()}/a.jpg`],
    ['NAT64 local-use prefix, dotted', () => `http://[64:ff9b:1::127.0.0.1]:${P()}/a.jpg`],
    ['NAT64 well-known prefix, dotted', () => `http://[64:ff9b::127.0.0.1]:${P()}/a.jpg`],
    ['IPv4-compatible ::7f00:1', () => `http://[::7f00:1]:${P()}/a.jpg`],
    ['IPv4-compatible dotted ::127.0.0.1', () => `http://[::127.0.0.1]:${P()}/a.jpg`],
    ['IPv4-translated ::ffff:0:7f00:1', () => `http://[::ffff:0:7f00:1]:${P()}/a.jpg`],
    ['6to4 of the metadata address', () => 'http://[2002:a9fe:a9fe::1]/latest/'],
    ['short 10.1', () => 'http://10.1/a.jpg'],
    ['octal short 012.1', () => 'http://012.1/a.jpg'],
    ['EKS Pod Identity 169.254.170.23', () => 'http://169.254.170.23/v1/credentials'],
    ['EKS Pod Identity IPv6 fd00:ec2::23', () => 'http://[fd00:ec2::23]/v1/credentials'],
    ['ECS task metadata 169.254.170.2', () => 'http://169.254.170.2/v2/credentials'],
    ['GCP IPv6 metadata fd20:ce::254', () => 'http://[fd20:ce::254]/computeMetadata/v1/'],
    ['Azure WireServer 168.63.129.16', () => 'http://168.63.129.16/machine'],
    ['Oracle legacy metadata 192.0.0.192', () => 'http://192.0.0.192/opc/v1/instance/'],
    ['metadata.goog', () => 'http://metadata.goog/computeMetadata/v1/'],
    ['metadata.azure.com', () => 'http://metadata.azure.com/metadata/instance'],
    ['instance-data.ec2.internal', () => 'http://instance-data.ec2.internal/latest/'],
    ['a name resolving to AWS metadata', () => 'http://aws.example.com/latest/'],
    ['a name resolving to AWS IPv6 metadata', () => 'http://aws6.example.com/latest/'],
    ['a name resolving to ECS metadata', () => 'http://ecs.example.com/v2/credentials'],
    ['a name resolving to EKS Pod Identity', () => 'http://eks.example.com/v1/credentials'],
    ['a name resolving to EKS Pod Identity over IPv6', () => 'http://eks6.example.com/v1/credentials'],
    ['a name resolving to GCP IPv6 metadata', () => 'http://gcp6.example.com/computeMetadata/v1/'],
    ['a name resolving to Azure WireServer', () => 'http://azure.example.com/machine'],
    ['a name resolving to Alibaba metadata', () => 'http://alibaba.example.com/latest/meta-data/'],
    ['a name resolving to Oracle metadata', () => 'http://oracle.example.com/opc/v1/'],
    ['a name resolving to a NAT64 local-use form of EKS', () => 'http://nat64-local.example.com/v1/credentials'],
    ['localhost', () => `http://localhost:${P()}/a.jpg`],
    ['LOCALHOST. with trailing dot', () => `http://LOCALHOST.:${P()}/a.jpg`],
    ['a .localhost subdomain', () => `http://app.localhost:${P()}/a.jpg`],
    ['0.0.0.0', () => `http://0.0.0.0:${P()}/a.jpg`],
    ['bare 0', () => `http://0:${P()}/a.jpg`],
    ['a name resolving to loopback', () => `http://loopback.example.com:${P()}/a.jpg`],
    ['a name with a public and a loopback address', () => `http://rebind.example.com:${P()}/a.jpg`],
    ['a name resolving to ::1', () => `http://v6-loopback.example.com:${P()}/a.jpg`],
    ['a name resolving to an IPv6-mapped loopback', () => `http://mapped.example.com:${P()}/a.jpg`],
    ['10/8', () => 'http://10.0.0.1/a.jpg'],
    ['172.16/12', () => 'http://172.16.5.4/a.jpg'],
    ['192.168/16', () => 'http://192.168.1.1/a.jpg'],
    ['192.168.1.1 as decimal 3232235777', () => 'http://3232235777/a.jpg'],
    ['CGNAT 100.64/10', () => 'http://100.64.0.1/a.jpg'],
    ['a name resolving to CGNAT', () => 'http://cgnat.example.com/a.jpg'],
    ['a name resolving to the LAN', () => 'http://lan.example.com/a.jpg'],
    ['AWS metadata 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['metadata as hex 0xa9fea9fe', () => 'http://0xa9fea9fe/latest/meta-data/'],
    ['metadata as octal 0251.0376.0251.0376', () => 'http://0251.0376.0251.0376/latest/meta-data/'],
    ['metadata IPv6-mapped', () => 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['AWS IPv6 metadata fd00:ec2::254', () => 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['Alibaba metadata 100.100.100.200', () => 'http://100.100.100.200/latest/meta-data/'],
    ['metadata.google.internal', () => 'http://metadata.google.internal/computeMetadata/v1/'],
    ['bare metadata', () => 'http://metadata/computeMetadata/v1/'],
    ['instance-data', () => 'http://instance-data/latest/meta-data/'],
    ['a name aliasing the metadata address', () => 'http://metadata-alias.example.com/latest/'],
    ['link-local 169.254.1.1', () => 'http://169.254.1.1/a.jpg'],
    ['IPv6 link-local fe80::1', () => 'http://[fe80::1]/a.jpg'],
    ['IPv6 unique local fd12:3456::1', () => 'http://[fd12:3456::1]/a.jpg'],
    ['multicast 224.0.0.1', () => 'http://224.0.0.1/a.jpg'],
    ['IPv6 multicast ff02::1', () => 'http://[ff02::1]/a.jpg'],
    ['broadcast 255.255.255.255', () => 'http://255.255.255.255/a.jpg'],
    ['an .internal name', () => 'http://files.corp.internal/a.jpg'],
    ['a single-label intranet name', () => 'http://fileserver/a.jpg'],
  ];

  it(`has at least 30 forms to refuse (${forms.length})`, () => {
    expect(forms.length).toBeGreaterThanOrEqual(30);
  });

  it.each(forms)('refuses %s before connecting', async (_label, url) => {
    const before = loop.connections;
    const err = await attempt(url(), guard);
    expect(err).toBeInstanceOf(MediaError);
    expect((err as MediaError).code).toBe('private_address');
    expect(connectSpy).not.toHaveBeenCalled();
    expect(loop.connections).toBe(before);
  });

  describe('a public host redirecting to a private one', () => {
    // Only the test's "public" server (on 127.0.0.1) counts as public; everything else is judged normally.
    const publicOnly = new AddressGuard({ resolve, check: (ip) => (ip === '127.0.0.1' ? null : classifyAddress(ip)) });

    it.each(['/to-127.0.0.2', '/to-decimal', '/to-localhost', '/to-metadata', '/to-v6', '/to-lan-name', '/to-nat64-local', '/to-compatible', '/to-eks', '/to-eks6', '/to-eks-name', '/to-azure', '/to-6to4-metadata'])(
      'is refused at the redirect %s, and the private server sees no connection',
      async (path) => {
        const err = await attempt(`http://public.example.com:${publicServer.port}${path}`, publicOnly);
        expect((err as MediaError).code).toBe('private_address');
        expect(lan.connections).toBe(0);
      },
    );

    it('still follows redirects that stay public', async () => {
      expect(await attempt(`http://public.example.com:${publicServer.port}/to-relative-ok`, publicOnly)).toBe('fetched');
    });
  });

  it('reports a refused source in the task as private_address', async () => {
    const h = harness({ guard: new AddressGuard({ allowPrivate: false, resolve }) });
    try {
      const { status } = await prepareAndWait(h.media, h.userId, [`http://2130706433:${loop.port}/a.jpg`, 'http://169.254.169.254/latest/meta-data/']);
      expect(status.status).toBe('failed');
      expect(status.failed.map((f) => f.error.code)).toEqual(['private_address', 'private_address']);
      expect(connectSpy).not.toHaveBeenCalled();
    } finally {
      await h.cleanup();
    }
  });
});

describe('with private networks allowed (a trusted LAN, tests)', () => {
  const guard = new AddressGuard({ allowPrivate: true, resolve });

  it('fetches from loopback', async () => {
    expect(await attempt(`http://127.0.0.1:${loop.port}/a.jpg`, guard)).toBe('fetched');
    expect(connectSpy).toHaveBeenCalled(); // the spy does see real connections
  });

  it('still refuses cloud metadata endpoints, by address and by name', async () => {
    for (const url of [
      'http://169.254.169.254/latest/',
      'http://metadata.google.internal/',
      'http://metadata-alias.example.com/',
      'http://[fd00:ec2::254]/',
      'http://169.254.170.23/v1/credentials',
      'http://[fd00:ec2::23]/v1/credentials',
      'http://eks.example.com/v1/credentials',
      'http://[64:ff9b:1::a9fe:aa17]/v1/credentials',
      'http://[::ffff:169.254.170.23]/v1/credentials',
      'http://168.63.129.16/machine',
      'http://alibaba.example.com/latest/',
      'http://oracle.example.com/opc/v1/',
      'http://gcp6.example.com/computeMetadata/v1/',
    ]) {
      expect([url, ((await attempt(url, guard)) as MediaError).code]).toEqual([url, 'private_address']);
    }
    expect(connectSpy).not.toHaveBeenCalled();
  });

  it('refuses a redirect to the EKS Pod Identity agent, by address and by name', async () => {
    // The test's public server is on loopback, which this guard allows; the redirect target is metadata.
    for (const path of ['/to-eks', '/to-eks6', '/to-eks-name', '/to-azure']) {
      const err = await attempt(`http://public.example.com:${publicServer.port}${path}`, guard);
      expect([path, (err as MediaError).code]).toEqual([path, 'private_address']);
    }
  });
});

describe('address parsing', () => {
  it('reads every inet_aton form of an IPv4 address', () => {
    const loopback = 0x7f000001;
    for (const text of ['127.0.0.1', '127.1', '127.0.1', '2130706433', '017700000001', '0x7f000001', '0x7F.0.0.1', '0177.0.0.01']) {
      expect(parseIPv4(text)).toBe(loopback);
    }
    expect(parseIPv4('256.0.0.1')).toBeNull();
    expect(parseIPv4('1.2.3.4.5')).toBeNull();
    expect(parseIPv4('example.com')).toBeNull();
    expect(parseIPv4('4294967296')).toBeNull();
  });

  it('reads IPv6 with compression, brackets, zones and dotted tails', () => {
    expect(parseIPv6('[::1]')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('::ffff:10.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('127.0.0.1')).toBeNull();
  });

  it('lets ordinary public addresses through', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1', '11.0.0.1']) {
      expect(classifyAddress(ip)).toBeNull();
    }
  });
});
