import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { http1Get, type Http1Response } from '../../src/net/http1-get';
import { MediaError } from '../../src/net/media-error';

/** A raw TCP server that answers each connection with `script` (bytes written in pieces). */
async function rawServer(script: (socket: net.Socket, request: string) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let request = '';
    socket.on('data', (d) => {
      request += d.toString('latin1');
      if (request.includes('\r\n\r\n')) script(socket, request);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

let server: Awaited<ReturnType<typeof rawServer>> | undefined;
afterEach(async () => server?.close());

const get = (port: number, opts: { headersTimeoutMs?: number; idleTimeoutMs?: number; signal?: AbortSignal } = {}) =>
  http1Get(new URL(`http://files.example.com:${port}/a/b.jpg?x=1`), { address: '127.0.0.1', family: 4 }, {
    headers: { 'User-Agent': 'test' },
    signal: opts.signal ?? new AbortController().signal,
    headersTimeoutMs: opts.headersTimeoutMs ?? 5000,
    idleTimeoutMs: opts.idleTimeoutMs ?? 5000,
  });

async function readAll(res: Http1Response): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let c = await res.read(); c !== null; c = await res.read()) parts.push(c);
  return Buffer.concat(parts);
}

describe('http1Get', () => {
  it('sends one GET with the Host of the URL, not the address it connects to', async () => {
    let seen = '';
    server = await rawServer((s, req) => {
      seen = req;
      s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const res = await get(server.port);
    expect((await readAll(res)).toString()).toBe('ok');
    expect(seen.split('\r\n').slice(0, 3)).toEqual(['GET /a/b.jpg?x=1 HTTP/1.1', `Host: files.example.com:${server.port}`, 'Connection: close']);
  });

  it('decodes a chunked body split at awkward places, with extensions and trailers', async () => {
    const wire = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1; Path=/\r\nSet-Cookie: b=2\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: y\r\n\r\n';
    server = await rawServer((s) => {
      // One byte at a time: every boundary falls inside a read.
      let i = 0;
      const tick = () => (i < wire.length ? s.write(wire[i++] as string, () => tick()) : undefined);
      tick();
    });
    const res = await get(server.port);
    expect(res.setCookies).toEqual(['a=1; Path=/', 'b=2']);
    expect((await readAll(res)).toString()).toBe('hello world');
  });

  it('reads a body without a length up to the end of the connection', async () => {
    server = await rawServer((s) => s.end('HTTP/1.0 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a...'));
    const res = await get(server.port);
    expect(res.headers['content-type']).toBe('image/gif');
    expect((await readAll(res)).toString()).toBe('GIF89a...');
  });

  it('skips an interim 100 Continue', async () => {
    server = await rawServer((s) => s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
    const res = await get(server.port);
    expect([res.status, res.statusText]).toEqual([404, 'Not Found']);
  });

  it('fails a body cut short of its Content-Length', async () => {
    server = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'));
    const res = await get(server.port);
    await expect(readAll(res)).rejects.toMatchObject({ code: 'fetch_failed' });
  });

  it('fails when no answer comes, and when the body stalls', async () => {
    server = await rawServer(() => {});
    await expect(get(server.port, { headersTimeoutMs: 50 })).rejects.toThrow(/sent no answer within 0.05 s/);
    await server.close();
    server = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    const res = await get(server.port, { idleTimeoutMs: 50 });
    await expect(readAll(res)).rejects.toThrow(/stalled/);
  });

  it('stops at once when aborted, with the signal’s reason', async () => {
    server = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    const ctrl = new AbortController();
    const res = await get(server.port, { signal: ctrl.signal });
    const reading = readAll(res);
    const reason = new MediaError('timeout', 'too slow');
    ctrl.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });

  it('refuses something that is not HTTP/1.x', async () => {
    server = await rawServer((s) => s.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    await expect(get(server.port)).rejects.toThrow(/did not answer with HTTP/);
  });
});

describe('http1Get over TLS', () => {
  const cert = readFileSync(new URL('./fixtures/media-test.cert.pem', import.meta.url), 'utf8');
  const key = readFileSync(new URL('./fixtures/media-test.key.pem', import.meta.url), 'utf8');
  let tlsServer: https.Server;
  let port = 0;
  afterEach(() => new Promise<void>((r) => (tlsServer ? tlsServer.close(() => r()) : r())));

  async function start() {
    tlsServer = https.createServer({ cert, key }, (req, res) => res.writeHead(200, { 'content-length': '5' }).end(req.headers.host?.split(':')[0] === 'media.test' ? 'hello' : 'wrong'));
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    port = (tlsServer.address() as AddressInfo).port;
  }
  const tlsGet = (host: string, ca?: string) =>
    http1Get(new URL(`https://${host}:${port}/`), { address: '127.0.0.1', family: 4 }, { headers: {}, signal: new AbortController().signal, headersTimeoutMs: 5000, idleTimeoutMs: 5000, ca });

  it('checks the certificate against the URL’s host name while connecting to the checked address', async () => {
    await start();
    const res = await tlsGet('media.test', cert);
    expect((await readAll(res)).toString()).toBe('hello');
  });

  it('refuses a certificate for another name, and an untrusted one', async () => {
    await start();
    await expect(tlsGet('other.test', cert)).rejects.toThrow(/ERR_TLS_CERT_ALTNAME_INVALID/);
    await expect(tlsGet('media.test')).rejects.toMatchObject({ code: 'fetch_failed' });
  });
});

describe('HashingFileSink', () => {
  it('hashes what it writes and lets the process exit afterwards (its thread is shared and unref’d)', () => {
    const script = fileURLToPath(new URL('./fixtures/hash-and-exit.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.error).toBeUndefined(); // not killed by the timeout
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(createHash('sha256').update('hello').digest('hex'));
  });
});

describe('http1Get to an address with no route (issue 28: the webhook sender crashed on these)', () => {
  it.each([
    ['https', '255.255.255.255', 4],
    ['http', 'ff02::1', 6],
  ] as const)('%s to %s fails as fetch_failed naming ENETUNREACH, nothing uncaught', async (scheme, address, family) => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const error = await http1Get(new URL(`${scheme}://pub.probe.test/photo.png`), { address, family }, { headers: {}, signal: AbortSignal.timeout(5_000), headersTimeoutMs: 5_000, idleTimeoutMs: 5_000 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MediaError);
      expect(error).toMatchObject({ code: 'fetch_failed', message: 'could not fetch from pub.probe.test: ENETUNREACH' });
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
