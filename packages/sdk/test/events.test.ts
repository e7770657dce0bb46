import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAdmin, resolveConfig, silentLogger, startDaemon, type DaemonHandle } from '@socialpub/daemon';
import { BadRequestError, SocialPub, verifyWebhook, WebhookVerificationError, type SocialpubEvent } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLoopClock } from './helpers/fake-clock';

const EMAIL = 'events@example.com';
const later = () => ({ caption: 'events', platforms: ['twitter' as const], scheduled_for: new Date(Date.now() + 86_400_000).toISOString() });

describe('client.events.stream and webhooks against the real daemon', () => {
  let dataDir: string;
  let port = 0;
  let daemon: DaemonHandle;
  let apiKey: string;

  async function start() {
    const config = resolveConfig({ dataDir, host: '127.0.0.1', port, logLevel: 'error' }, { SOCIALPUB_WEBHOOK_ALLOW_PRIVATE: '1' });
    daemon = await startDaemon(config, { logger: silentLogger });
    port = daemon.port;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'socialpub-sdk-events-'));
    await start();
    const admin = openAdmin(dataDir);
    apiKey = admin.createKey({ email: EMAIL, name: 'events' }).api_key;
    admin.addSandboxConnection('twitter', { email: EMAIL });
    admin.close();
  });
  afterAll(async () => {
    await daemon?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('iterates events, reconnects across a daemon restart and resumes without missing or repeating one', { timeout: 30_000 }, async () => {
    const client = new SocialPub({ baseUrl: daemon.url, apiKey, clock: eventLoopClock() });
    const controller = new AbortController();
    const seen: SocialpubEvent[] = [];
    const jobs: string[] = [];
    // Published before the stream opens: `since` (the start of the outbox) still brings it.
    jobs.push((await client.content.publish(later())).job_id);
    const iterator = client.events.stream({ since: 'evt_0', types: ['post.accepted', 'post.cancelled'], signal: controller.signal })[Symbol.asyncIterator]();
    const next = async () => {
      const r = await iterator.next();
      if (r.done) throw new Error('stream ended');
      seen.push(r.value);
      return r.value;
    };
    expect((await next()).data.job_id).toBe(jobs[0]);

    // The daemon goes away and comes back on the same port; meanwhile more happens.
    await daemon.close();
    await start();
    jobs.push((await client.content.publish(later())).job_id);
    await client.scheduled.cancel(jobs[0]!);
    await next();
    await next();
    expect(seen.map((e) => [e.type, e.job_id])).toEqual([
      ['post.accepted', jobs[0]],
      ['post.accepted', jobs[1]],
      ['post.cancelled', jobs[0]],
    ]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(3);
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
  });

  it('throws a refusal instead of reconnecting forever', async () => {
    const client = new SocialPub({ baseUrl: daemon.url, apiKey, clock: eventLoopClock() });
    const iterator = client.events.stream({ types: ['post.nonsense' as 'post.accepted'] })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toBeInstanceOf(BadRequestError);
  });

  it('manages webhooks; verifyWebhook accepts each delivery and rejects a tampered one', { timeout: 30_000 }, async () => {
    const received: { body: string; headers: Record<string, string> }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = new SocialPub({ baseUrl: daemon.url, apiKey });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const hook = await client.webhooks.create({ url, event_types: ['post.accepted'], description: 'sdk' });
      expect(hook.secret).toMatch(/^whsec_/);
      expect((await client.webhooks.list()).map((h) => [h.id, h.secret])).toEqual([[hook.id, undefined]]);
      await client.content.publish(later());
      await client.webhooks.test(hook.id);
      for (let i = 0; i < 100 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received.map((r) => verifyWebhook(r.body, r.headers, hook.secret!).type).sort()).toEqual(['post.accepted', 'webhook.test']);
      expect(() => verifyWebhook(received[0]!.body.replace('"version":1', '"version":2'), received[0]!.headers, hook.secret!)).toThrow(WebhookVerificationError);
      const deliveries = await client.webhooks.deliveries(hook.id);
      expect(deliveries.map((d) => [d.status, d.attempts[0]?.status_code])).toEqual([
        ['delivered', 204],
        ['delivered', 204],
      ]);
      await expect(client.webhooks.create({ url: 'https://169.254.169.254/x', event_types: ['*'] })).rejects.toBeInstanceOf(BadRequestError);
      await client.webhooks.delete(hook.id);
      expect(await client.webhooks.list()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
