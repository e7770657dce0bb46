import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { APIConnectionError, RateLimitError, type APIError } from '@socialpub/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { SocialPub } from '../src/light-client';
import { AnswerReader } from '../src/senders/net-sender';
import { FakeClock } from './helpers/fake-clock';

// What only the CLI's sender for a plain-http daemon (src/senders/net-sender.ts: one
// HTTP/1.1 exchange on a node:net socket) decides: how it writes the request and reads the
// answer's framing. Everything the SDK promises is checked by the SDK's suites, run again
// with the light client (light-client.test.ts), and by the CLI's suites against a daemon.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A TCP server on 127.0.0.1 that hands each connection's request text and socket to `answer`. */
async function rawServer(answer: (request: string, socket: Socket) => void): Promise<{ url: string; requests: string[]; connections: () => number }> {
  const requests: string[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? 0);
      if (end !== -1 && text.length >= end + 4 + length) {
        requests.push(text);
        answer(text, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, connections: () => connections };
}

const client = (baseUrl: string, headers?: Record<string, string>) => new SocialPub({ baseUrl, apiKey: 'sp_key_secret', clock: new FakeClock(), timeout: 5_000, maxRetries: 0, validateResponses: false, ...(headers ? { headers } : {}) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const USER = JSON.stringify({ success: true, user: { id: 'u_1', email: 'a@b.c' } });

describe('the node:net sender of the light client', () => {
  it('writes one HTTP/1.1 request with the SDK headers, Host, Content-Length and Connection: close', async () => {
    const server = await rawServer((_r, s) => s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${USER.length}\r\n\r\n${USER}`));
    const user = await client(server.url).auth.validate();
    expect(user).toEqual(JSON.parse(USER));
    const [request] = server.requests;
    const [line, ...headerLines] = (request as string).split('\r\n\r\n')[0]?.split('\r\n') ?? [];
    expect(line).toBe('POST /api/agents/v1/auth/validate HTTP/1.1');
    const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
    expect(headers).toMatchObject({ 'host': server.url.slice('http://'.length), 'authorization': 'Bearer sp_key_secret', 'accept': 'application/json', 'content-type': 'application/json', 'content-length': '0', 'connection': 'close' });
    expect(headers['user-agent']).toMatch(/^socialpub-sdk\/\d+\.\d+\.\d+ node\//);
  });

  it('reads a chunked answer that arrives in pieces, head split too', async () => {
    const body = JSON.stringify({ posts: [{ job_id: 'job_1', caption: 'é'.repeat(3000) }], next_cursor: null });
    const server = await rawServer(async (_r, s) => {
      const bytes = Buffer.from(body, 'utf8');
      const half = Math.floor(bytes.length / 2);
      const pieces = [
        Buffer.from('HTTP/1.1 200 OK\r\ntransfer-enc'),
        Buffer.from('oding: chunked\r\ncontent-type: application/json\r\n\r\n'),
        Buffer.from(`${half.toString(16)}\r\n`),
        bytes.subarray(0, half - 1),
        Buffer.concat([bytes.subarray(half - 1, half), Buffer.from(`\r\n${(bytes.length - half).toString(16)};ext=1\r\n`), bytes.subarray(half)]),
        Buffer.from('\r\n0\r\n'),
        Buffer.from('\r\n'),
      ];
      for (const p of pieces) {
        s.write(p);
        await sleep(5);
      }
      // The connection stays open: the answer is whole at the last chunk.
    });
    const page = await client(server.url).scheduled.list();
    expect({ posts: page.posts, next_cursor: page.next_cursor }).toEqual(JSON.parse(body));
  });

  it('reads an answer delimited by the connection closing, after an informational head', async () => {
    const server = await rawServer((_r, s) => s.end(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${USER}`));
    expect(await client(server.url).auth.validate()).toEqual(JSON.parse(USER));
  });

  it('gives a non-2xx answer as the APIError of its status, headers read (Retry-After), HTTPError as cause', async () => {
    const body = JSON.stringify({ success: false, error: { code: 'rate_limited', message: 'slow down' } });
    const server = await rawServer((_r, s) => s.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nX-Request-Id: req_9\r\ncontent-length: ${body.length}\r\n\r\n${body}`));
    const error = (await client(server.url).scheduled.list().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(7);
    expect(error.message).toMatch(/^error: slow down \(at \d\d:\d\d\)$/);
    expect((error.cause as Error).name).toBe('HTTPError');
    expect((error.cause as { response: { statusMessage: string } }).response.statusMessage).toBe('Too Many Requests');
  });

  it('reports an answer cut short, and a connection closed before any answer, as ECONNRESET', async () => {
    const cut = await rawServer((_r, s) => s.end(`HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"success":`));
    const error = (await client(cut.url).auth.validate().catch((e: unknown) => e)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.code).toBe('ECONNRESET');
    expect(error.message).toContain('the connection closed before the whole answer arrived');

    const closed = await rawServer((_r, s) => s.end());
    const hangUp = (await client(closed.url).auth.validate().catch((e: unknown) => e)) as APIConnectionError;
    expect(hangUp).toBeInstanceOf(APIConnectionError);
    expect(hangUp.code).toBe('ECONNRESET');
    expect(hangUp.message).toContain('socket hang up');
  });

  it('reports an answer that is not HTTP as a parse error of the connection', async () => {
    const server = await rawServer((_r, s) => s.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    const error = (await client(server.url).auth.validate().catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.code).toBe('HPE_INVALID_CONSTANT');
  });

  it('refuses a header value with a line break as node:http does, before connecting (no header injection)', async () => {
    const server = await rawServer((_r, s) => s.end(`HTTP/1.1 200 OK\r\ncontent-length: ${USER.length}\r\n\r\n${USER}`));
    const error = (await client(server.url, { 'x-note': 'a\r\nx-admin: yes' })
      .auth.validate()
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_INVALID_CHAR');
    expect(error.message).toBe('Invalid character in header content ["x-note"]');
    await sleep(20);
    expect(server.connections()).toBe(0);
  });
});

describe('AnswerReader', () => {
  it('takes a Content-Length body byte by byte and a 204 without one', () => {
    const reader = new AnswerReader();
    const bytes = Buffer.from('HTTP/1.1 201 Created\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nVary: x\r\nVary: y\r\n\r\nhello');
    let answer;
    for (let i = 0; i < bytes.length; i++) {
      answer = reader.push(bytes.subarray(i, i + 1));
      if (i < bytes.length - 1) expect(answer).toBeUndefined();
    }
    expect(answer?.status).toBe(201);
    expect(answer?.statusMessage).toBe('Created');
    expect(answer?.body.toString()).toBe('hello');
    expect(answer?.headers).toEqual({ 'content-length': '5', 'set-cookie': ['a=1', 'b=2'], 'vary': 'x, y' });
    expect(new AnswerReader().push(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'))?.body.length).toBe(0);
  });

  it('refuses a bad Content-Length and a bad chunk size', () => {
    expect(() => new AnswerReader().push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 1x\r\n\r\n'))).toThrow(/Content-Length/);
    expect(() => new AnswerReader().push(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'))).toThrow(/chunk size/);
  });
});
