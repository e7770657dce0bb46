import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdmin } from '../../../src/admin/admin';
import { resolveConfig } from '../../../src/config';
import { startDaemon } from '../../../src/daemon';
import { classifyGraphError } from '../../../src/platforms/meta/classify-error';
import { GraphClient } from '../../../src/platforms/meta/graph-client';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import { wasSent } from '../../../src/platforms/shared/was-sent';
import { flushMicrotasks, ManualClock } from '../../../src/util/clock';
import { createLogger } from '../../../src/util/logger';
import { makeContext } from './harness';

const fixture = (name: string) => fileURLToPath(new URL(`../../http/fixtures/${name}`, import.meta.url));

let tls: Server;
let tlsUrl: string;
let tlsRequests = 0;
let closedUrl: string;

beforeAll(async () => {
  // A server whose certificate no client trusts: the handshake fails before any request byte.
  tls = createHttpsServer({ cert: readFileSync(fixture('tls-cert.pem')), key: readFileSync(fixture('tls-key.pem')) }, (_req, res) => {
    tlsRequests++;
    res.end('{}');
  });
  await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
  tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  // A port nobody listens on.
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(() => new Promise<void>((r) => tls.close(() => r())));

async function gotError(url: string): Promise<unknown> {
  try {
    await got.post(url, { body: '{}', retry: { limit: 0 }, timeout: { request: 5_000 } });
  } catch (err) {
    return err;
  }
  throw new Error('the request succeeded');
}

describe('failures before anything was sent', () => {
  it.each([
    ['a self-signed certificate', () => tlsUrl],
    ['a refused connection', () => closedUrl],
    ['an unresolvable name', () => 'http://socialpub-test.invalid/'],
  ])('%s is known not to have reached the server', async (_what, url) => {
    const err = await gotError(url());
    expect(wasSent(err)).toBe(false);
    expect(tlsRequests).toBe(0);
  });

  it('a Graph publishing call that failed its TLS handshake is retryable, not an unknown outcome', async () => {
    const client = new GraphClient({ baseUrl: tlsUrl, version: 'v25.0', token: 't', timeoutMs: 5_000 });
    const err = await client.request('me/threads_publish', { method: 'POST', params: { creation_id: '1' } }).catch((e: unknown) => e);
    const mapped = classifyGraphError(err, { now: 0, publishing: true, label: 'Threads' });
    expect(mapped.kind).toBe('retryable');
  });

  it('a Graph publishing call whose answer was lost stays an unknown outcome', async () => {
    // The server takes the request and closes without answering: it may have published.
    const server = createNetServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = new GraphClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, version: 'v25.0', token: 't', timeoutMs: 5_000 });
      const err = await client.request('me/threads_publish', { method: 'POST', params: { creation_id: '1' } }).catch((e: unknown) => e);
      expect(classifyGraphError(err, { now: 0, publishing: true, label: 'Threads' }).kind).toBe('outcome_unknown');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('an X post whose TLS handshake failed is retryable', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const adapter = createTwitterAdapter({ requestTimeoutMs: 5_000 });
    const ctx = makeContext({
      platform: 'twitter',
      type: 'tweet',
      caption: 'hello',
      secrets: { access_token: 'sandbox-x-token' },
      clock,
      server: { url: tlsUrl, baseUrl: () => tlsUrl, close: async () => {} },
    });
    const err = (await adapter.publish(ctx).catch((e: unknown) => e)) as { kind?: string };
    expect(err.kind).toBe('retryable');
  });
});

describe('the daemon on TLS', () => {
  it("publishes a sandbox post through its own simulators (its calls to itself work with TLS on)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-tls-sandbox-'));
    try {
      const admin = openAdmin(dir);
      const { api_key } = admin.createKey({ email: 'me@example.com' });
      admin.addSandboxConnection('twitter', { email: 'me@example.com' });
      admin.close();
      const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, tlsCert: fixture('tls-cert.pem'), tlsKey: fixture('tls-key.pem') }, {}), {
        logger: createLogger({ level: 'silent' }),
      });
      try {
        const ca = readFileSync(fixture('tls-cert.pem'));
        const api = got.extend({ prefixUrl: `${daemon.url}/api/agents/v1`, https: { certificateAuthority: ca }, headers: { 'x-api-key': api_key }, retry: { limit: 0 } });
        const job = await api.post('content/publish', { json: { caption: 'over TLS', platforms: ['twitter'], publish_now: true } }).json<{ job_id: string }>();
        let post: { status: string; targets?: unknown } = { status: 'publishing' };
        for (let i = 0; i < 200 && !['published', 'needs_review', 'failed'].includes(post.status); i++) {
          await new Promise((r) => setTimeout(r, 25));
          await flushMicrotasks();
          post = (await api.get('content/scheduled', { searchParams: { job_id: job.job_id } }).json<{ post: typeof post }>()).post;
        }
        expect(post.status, JSON.stringify(post)).toBe('published');
      } finally {
        await daemon.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
