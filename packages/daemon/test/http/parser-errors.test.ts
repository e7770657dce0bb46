import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { createLogger } from '../../src/util/logger';

let daemon: DaemonHandle;
let dir: string;
const lines: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sp-parser-'));
  daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), { logger: createLogger({ write: (l) => lines.push(l) }) });
});
afterAll(async () => {
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends raw bytes and reads everything until the daemon closes the connection. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(daemon.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(bytes);
  });
}

function parse(response: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body = ''] = response.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

const CASES: [name: string, request: string, status: number, code: string][] = [
  ['a bad Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'invalid_request'],
  ['two different Content-Lengths', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400, 'invalid_request'],
  ['Content-Length with Transfer-Encoding', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'invalid_request'],
  ['a folded header', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n', 400, 'invalid_request'],
  ['a NUL in a header', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400, 'invalid_request'],
  ['a bad method', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
  ['headers past the limit', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
];

describe("errors raised by Node's HTTP parser", () => {
  it.each(CASES)('answers %s with the one error body and a request id', async (_name, request, status, code) => {
    const res = parse(await raw(request));
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String), request_id: requestId } });
    // The daemon log names the same request id, so an operator can find it.
    expect(lines.some((l) => l.includes(requestId!) && l.includes('malformed request'))).toBe(true);
  });
});

describe('a CONNECT request (issue 28: the socket was closed with no answer)', () => {
  it.each([
    ['an authority target', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 'example.com:443'],
    ['a loopback target', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', '127.0.0.1:22'],
  ])('gets the one error body (%s), and the daemon keeps serving', async (_name, request, target) => {
    const res = parse(await raw(request));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.connection).toBe('close');
    const requestId = res.headers['x-request-id'];
    expect(res.body).toEqual({
      success: false,
      error: { code: 'invalid_request', message: `CONNECT is not served here: socialpub is not a proxy (the request was CONNECT ${target})`, request_id: requestId },
    });
    expect(lines.some((l) => l.includes(requestId!) && l.includes('refused CONNECT'))).toBe(true);
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  });
});
