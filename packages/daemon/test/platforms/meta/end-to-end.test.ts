import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../../src/admin/index';
import { resolveConfig } from '../../../src/config';
import { createApp } from '../../../src/http/app';
import { createMedia } from '../../../src/media/create-media';
import { createAdapters } from '../../../src/platforms/registry';
import { createSandboxApp, listSandboxPosts, sandboxBaseUrl } from '../../../src/platforms/sandbox';
import { Publisher } from '../../../src/publisher/publisher';
import { Scheduler } from '../../../src/scheduler/scheduler';
import { openDatabase } from '../../../src/store/database';
import { createStore } from '../../../src/store/store';
import { createTargetQueue } from '../../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../../src/util/clock';
import { SecretBox } from '../../../src/util/secrets';

const API = '/api/agents/v1';
const PUBLIC = 'https://socialpub.example.test';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The daemon's parts wired as daemon.ts wires them, over a ManualClock, with the sandbox simulators. */
async function world() {
  const dir = mkdtempSync(join(tmpdir(), 'sp-e2e-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const clock = new ManualClock();
  const db = openDatabase(join(dir, 'socialpub.db'));
  cleanups.push(() => db.close());
  const secrets = SecretBox.fromKeyFile(join(dir, 'secret.key'));
  const store = createStore(db, { secrets, clock });
  const config = resolveConfig({ dataDir: dir, publicUrl: PUBLIC }, {});
  const media = createMedia({ db, dir: join(dir, 'media'), publicBaseUrl: PUBLIC, clock, allowPrivate: true });
  cleanups.push(() => media.stop());
  const queue = createTargetQueue(db);
  const adapters = createAdapters();
  // eslint-disable-next-line prefer-const
  let publisher: Publisher;
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => publisher.dispatch(id) });
  const app = createApp({ db, store, config, clock, secrets, scheduler, adapters, mediaLookup: media.lookup, mediaRoutes: media.mediaRoutes, fileRoutes: media.fileRoutes, sandbox: createSandboxApp({ db, clock }) });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  publisher = new Publisher({ queue, clock, adapters, connections: store.connections, media: media.resolver, scheduler, publicBaseUrl: PUBLIC, sandboxBaseUrl: (_p, host) => sandboxBaseUrl(url, host) });
  publisher.start();
  await scheduler.start();
  cleanups.push(async () => {
    await scheduler.stop();
    await publisher.stop(0);
  });

  const admin = openAdmin(dir, { clock });
  cleanups.push(() => admin.close?.());
  const key = admin.createKey({ email: 'me@example.com' }).api_key;
  for (const p of ['instagram', 'facebook', 'threads']) admin.addSandboxConnection(p, { email: 'me@example.com' });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${API}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { clock, db, media, call, admin };
}

describe('publishing to the Meta sandbox through the daemon', () => {
  it('publishes an instagram story now and a feed post a minute later, facebook and threads, each with the simulator post id and URL', async () => {
    const origin: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': JPEG.length }).end(JPEG));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => origin.close(() => r())));
    const w = await world();

    const prep = await w.call('POST', '/media/prepare', { urls: [`http://127.0.0.1:${(origin.address() as AddressInfo).port}/photo.jpg`] });
    expect(prep.status, JSON.stringify(prep.body)).toBeLessThan(300);
    const taskId = String(prep.body.task_id ?? (prep.body.data as Record<string, unknown> | undefined)?.task_id);
    await w.media.service.settled(taskId);
    const status = await w.call('GET', `/media/status/${taskId}`);
    const prepared = JSON.stringify(status.body).match(/"prepared_url":"([^"]+)"/)?.[1];
    expect(prepared).toMatch(new RegExp(`^${PUBLIC}/`));

    const now = new Date(w.clock.now()).toISOString();
    const pub = await w.call('POST', '/content/publish', {
      caption: 'Launch day',
      platforms: ['instagram', 'facebook', 'threads'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: [prepared],
      scheduled_for: now,
      type_schedule: { 'instagram.story': '+0m', 'instagram.feed': '+1m' },
    });
    expect(pub.status).toBeLessThan(300);

    const targets = () =>
      w.db.prepare('SELECT platform, type, status, due_at, post_id, post_url, error_message FROM targets ORDER BY platform, type').all() as {
        platform: string;
        type: string;
        status: string;
        due_at: number;
        post_id: string | null;
        post_url: string | null;
        error_message: string | null;
      }[];
    const start = w.clock.now();
    for (let i = 0; i < 600 && !targets().every((t) => t.status === 'published' || t.status === 'failed' || t.status === 'needs_review'); i++) {
      await w.clock.advance(1_000);
      await flushMicrotasks(20);
    }
    const rows = targets();
    expect(rows.map((t) => [t.platform, t.type, t.status, t.error_message])).toEqual([
      ['facebook', 'feed', 'published', null],
      ['instagram', 'feed', 'published', null],
      ['instagram', 'story', 'published', null],
      ['threads', 'post', 'published', null],
    ]);
    expect(rows.find((t) => t.type === 'feed' && t.platform === 'instagram')!.due_at).toBe(start + 60_000);
    const posts = listSandboxPosts(w.db);
    expect(posts).toHaveLength(4);
    for (const t of rows) {
      const post = posts.find((p) => p.postId === t.post_id);
      expect(post, `${t.platform} ${t.type}`).toBeDefined();
      expect(t.post_url).toBe(post!.postUrl);
    }
    // The story went out before the feed post, a minute apart at least.
    const story = posts.find((p) => p.kind === 'story')!;
    const feed = posts.find((p) => p.platform === 'instagram' && p.kind === 'feed')!;
    expect(feed.createdAt - story.createdAt).toBeGreaterThanOrEqual(60_000 - 20_000);
    expect(story.body).toMatchObject({ media: [prepared] });
  });

  it('fails a target whose connection was removed before it fell due with platform_not_connected', async () => {
    const w = await world();
    const later = new Date(w.clock.now() + 10 * 60_000).toISOString();
    const pub = await w.call('POST', '/content/publish', { caption: 'Later', platforms: ['threads'], scheduled_for: later });
    expect(pub.status).toBeLessThan(300);
    w.admin.removeConnection('threads', { email: 'me@example.com' });
    for (let i = 0; i < 11; i++) {
      await w.clock.advance(60_000);
      await flushMicrotasks(20);
    }
    const row = w.db.prepare('SELECT status, error_code FROM targets').get() as { status: string; error_code: string };
    expect(row).toEqual({ status: 'failed', error_code: 'platform_not_connected' });
    expect(listSandboxPosts(w.db)).toEqual([]);
  });
});
