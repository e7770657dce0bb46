import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import got from 'got';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformRequest } from '../../../src/platforms/shared/platform-request';
import { singleAttempt } from '../../../src/platforms/shared/single-attempt';
import { wasSent } from '../../../src/platforms/shared/was-sent';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: Socket;
}

let server: Server;
let base: string;
let seen: Seen[];
let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;

beforeEach(async () => {
  seen = [];
  answer = (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id":"42"}');
  };
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, socket: req.socket });
      answer(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const caught = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as { code?: string; event?: string; message: string });

describe('platformRequest (undici path)', () => {
  it('sends a form POST with the query merged into the URL, and answers status, headers and text', async () => {
    const res = await platformRequest(undefined, `${base}/v1/acct/threads?x=1`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      form: { media_type: 'TEXT', text: 'héllo & bye' },
      searchParams: { fields: 'id,status' },
      ...singleAttempt(5_000, undefined),
    });
    expect(res).toEqual({ statusCode: 200, body: '{"id":"42"}', headers: expect.objectContaining({ 'content-type': 'application/json' }) });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/acct/threads?x=1&fields=id%2Cstatus', body: 'media_type=TEXT&text=h%C3%A9llo+%26+bye' });
    expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
  });

  it('sends JSON, and answers an error status instead of throwing (the clients read the platform error body)', async () => {
    answer = (_req, res) => {
      res.statusCode = 429;
      res.setHeader('x-rate-limit-reset', '1700000000');
      res.end('{"title":"Too Many Requests"}');
    };
    const res = await platformRequest(undefined, `${base}/2/tweets`, { method: 'POST', headers: {}, json: { text: 'hi' }, ...singleAttempt(5_000, undefined) });
    expect(res.statusCode).toBe(429);
    expect(res.headers['x-rate-limit-reset']).toBe('1700000000');
    expect(res.body).toBe('{"title":"Too Many Requests"}');
    expect(seen[0]).toMatchObject({ body: '{"text":"hi"}', headers: expect.objectContaining({ 'content-type': 'application/json' }) });
  });

  it('keeps connections to a host alive: six calls one after another reuse their sockets', async () => {
    for (let i = 0; i < 6; i++) await platformRequest(undefined, `${base}/me`, { method: 'GET', headers: {}, ...singleAttempt(5_000, undefined) });
    expect(seen).toHaveLength(6);
    // undici may dispatch the next call before the last socket is back in the pool: two at most, never one a call.
    expect(new Set(seen.map((s) => s.socket)).size).toBeLessThanOrEqual(2);
  });

  it('never follows a redirect', async () => {
    answer = (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', '/elsewhere');
      res.end();
    };
    const res = await platformRequest(undefined, `${base}/feed`, { method: 'POST', headers: {}, form: { message: 'x' }, ...singleAttempt(5_000, undefined) });
    expect(res.statusCode).toBe(302);
    expect(seen.map((s) => s.url)).toEqual(['/feed']);
  });

  it("times out as got does: ETIMEDOUT on 'request', sent (the call may have been processed)", async () => {
    answer = () => {};
    const err = await caught(platformRequest(undefined, `${base}/slow`, { method: 'POST', headers: {}, form: { a: '1' }, ...singleAttempt(150, undefined) }));
    expect(err).toMatchObject({ code: 'ETIMEDOUT', event: 'request', message: "Timeout awaiting 'request' for 150ms" });
    expect(wasSent(err)).toBe(true);
  });

  it("ends with the caller's signal: ERR_ABORTED", async () => {
    answer = () => {};
    const ac = new AbortController();
    const p = caught(platformRequest(undefined, `${base}/held`, { method: 'GET', headers: {}, ...singleAttempt(5_000, ac.signal) }));
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    expect(await p).toMatchObject({ code: 'ERR_ABORTED' });
    const already = await caught(platformRequest(undefined, `${base}/held`, { method: 'GET', headers: {}, ...singleAttempt(5_000, ac.signal) }));
    expect(already).toMatchObject({ code: 'ERR_ABORTED' });
  });

  it('a reset connection is ECONNRESET and sent; a refused one is ECONNREFUSED and never sent', async () => {
    answer = (req) => req.socket.resetAndDestroy();
    const reset = await caught(platformRequest(undefined, `${base}/reset`, { method: 'POST', headers: {}, form: { a: '1' }, ...singleAttempt(5_000, undefined) }));
    expect(reset?.code).toBe('ECONNRESET');
    expect(reset?.message).toContain('ECONNRESET');
    expect(wasSent(reset)).toBe(true);
    const closed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    const refused = await caught(platformRequest(undefined, `${closed}/x`, { method: 'GET', headers: {}, ...singleAttempt(5_000, undefined) }));
    expect(refused?.code).toBe('ECONNREFUSED');
    expect(wasSent(refused)).toBe(false);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
});

describe('platformRequest (got path)', () => {
  it('goes through an injected got instance, hooks and all', async () => {
    const hooked: string[] = [];
    const http = got.extend({ hooks: { beforeRequest: [(o) => void hooked.push(String(o.url))] } });
    const res = await platformRequest(http, `${base}/me`, { method: 'GET', headers: {}, ...singleAttempt(5_000, undefined) });
    expect(res.statusCode).toBe(200);
    expect(hooked).toEqual([`${base}/me`]);
  });

  it('sends a multipart body through got', async () => {
    const form = new FormData();
    form.set('source', new Blob([Buffer.from('bytes')]), 'a.jpg');
    const res = await platformRequest(undefined, `${base}/photos`, { method: 'POST', headers: {}, body: form, ...singleAttempt(5_000, undefined) });
    expect(res.statusCode).toBe(200);
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('bytes');
  });
});
