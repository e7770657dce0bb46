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
import { sandboxPostSink } from '../../../src/platforms/shared/sandbox-post-sink';
import { createYoutubeSimulator } from '../../../src/platforms/youtube/simulator';
import { Hono } from 'hono';
import { Publisher } from '../../../src/publisher/publisher';
import { Scheduler } from '../../../src/scheduler/scheduler';
import { openDatabase } from '../../../src/store/database';
import { createStore } from '../../../src/store/store';
import { createTargetQueue } from '../../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../../src/util/clock';
import { SecretBox } from '../../../src/util/secrets';

const API = '/api/agents/v1';
const PUBLIC = 'https://socialpub.example.test';
/** An MP4 head (ftyp box) followed by filler: enough for media preparation to sniff it as video/mp4. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(300_000, 9)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The daemon's parts wired as daemon.ts wires them, over a ManualClock, with the sandbox simulators. */
async function world(simulators?: Parameters<typeof createSandboxApp>[1], start?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sp-e2e-xty-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const clock = new ManualClock(start);
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
  const app = createApp({ db, store, config, clock, secrets, scheduler, adapters, mediaLookup: media.lookup, mediaRoutes: media.mediaRoutes, fileRoutes: media.fileRoutes, sandbox: createSandboxApp({ db, clock }, simulators) });
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
  for (const p of ['twitter', 'tiktok', 'youtube']) admin.addSandboxConnection(p, { email: 'me@example.com' });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${API}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { clock, db, media, call, admin };
}

/** Serves the two source files the test prepares. */
async function origin(): Promise<string> {
  const server: Server = createServer((req, res) => {
    const body = req.url?.endsWith('.mp4') ? MP4 : JPEG;
    res.writeHead(200, { 'content-type': req.url?.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function prepare(w: Awaited<ReturnType<typeof world>>, url: string): Promise<string> {
  const prep = await w.call('POST', '/media/prepare', { urls: [url] });
  expect(prep.status, JSON.stringify(prep.body)).toBeLessThan(300);
  const taskId = String(prep.body.task_id ?? (prep.body.data as Record<string, unknown> | undefined)?.task_id);
  await w.media.service.settled(taskId);
  const status = await w.call('GET', `/media/status/${taskId}`);
  const prepared = JSON.stringify(status.body).match(/"prepared_url":"([^"]+)"/)?.[1];
  expect(prepared, JSON.stringify(status.body)).toMatch(new RegExp(`^${PUBLIC}/`));
  return prepared!;
}

describe('publishing to the X, TikTok and YouTube sandboxes through the daemon', () => {
  it('publishes a tweet with an image, a text tweet, a TikTok video and a YouTube video and Short, each with the simulator post id and URL', async () => {
    const w = await world();
    const src = await origin();
    const image = await prepare(w, `${src}/photo.jpg`);
    const video = await prepare(w, `${src}/clip.mp4`);

    const publish = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    };
    await publish({ caption: 'Launch day, with a picture', platforms: ['twitter'], media_urls: [image] });
    await publish({ caption: 'Launch day in words only', platforms: ['twitter'] });
    await publish({ caption: 'Launch day\nThe whole story in a minute #launch', platforms: ['tiktok', 'youtube'], platform_types: { youtube: ['video', 'shorts'] }, media_urls: [video] });

    const targets = () =>
      w.db.prepare('SELECT platform, type, status, post_id, post_url, error_message FROM targets ORDER BY platform, id').all() as {
        platform: string;
        type: string;
        status: string;
        post_id: string | null;
        post_url: string | null;
        error_message: string | null;
      }[];
    for (let i = 0; i < 600 && !targets().every((t) => ['published', 'failed', 'needs_review'].includes(t.status)); i++) {
      await w.clock.advance(1_000);
      await flushMicrotasks(20);
    }
    const rows = targets();
    expect(rows.map((t) => [t.platform, t.type, t.status, t.error_message]).sort()).toEqual([
      ['tiktok', 'video', 'published', null],
      ['twitter', 'tweet', 'published', null],
      ['twitter', 'tweet', 'published', null],
      ['youtube', 'shorts', 'published', null],
      ['youtube', 'video', 'published', null],
    ]);
    const posts = listSandboxPosts(w.db);
    expect(posts).toHaveLength(5);
    for (const t of rows) {
      const post = posts.find((p) => p.platform === t.platform && p.postId === t.post_id);
      expect(post, `${t.platform} ${t.post_id}`).toBeDefined();
      // A Short is the same upload; its link is the /shorts/ form of the simulator's watch URL.
      expect(t.post_url).toBe(t.type === 'shorts' ? post!.postUrl!.replace('watch?v=', 'shorts/') : post!.postUrl);
    }
    const tweets = posts.filter((p) => p.platform === 'twitter');
    expect(tweets.map((p) => p.body.text).sort()).toEqual(['Launch day in words only', 'Launch day, with a picture']);
    expect(tweets.find((p) => p.body.text === 'Launch day, with a picture')!.body.media).toEqual([expect.objectContaining({ category: 'tweet_image', type: 'image/jpeg', bytes: JPEG.length })]);
    expect(posts.find((p) => p.platform === 'tiktok')!.body).toMatchObject({ source: 'FILE_UPLOAD', video_size: MP4.length, privacy_level: 'SELF_ONLY' });
    expect(posts.filter((p) => p.platform === 'youtube')).toHaveLength(2);
    expect(posts.find((p) => p.platform === 'youtube')!.body).toMatchObject({ bytes: MP4.length, snippet: { title: 'Launch day', tags: ['launch'] } });
  });
});

describe('sandbox connections past their token expiry', () => {
  it('refresh against the simulators without app credentials and keep publishing', async () => {
    const w = await world();
    // Sandbox tokens from the admin last 60 days: make this one due, as if those days had passed.
    w.db.prepare("UPDATE connections SET token_expires_at = ? WHERE platform = 'twitter'").run(w.clock.now() - 1);
    const res = await w.call('POST', '/content/publish', { publish_now: true, caption: 'Still here', platforms: ['twitter'] });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const row = () => w.db.prepare('SELECT status, error_message FROM targets').get() as { status: string; error_message: string | null };
    for (let i = 0; i < 60 && !['published', 'failed', 'needs_review'].includes(row().status); i++) {
      await w.clock.advance(1_000);
      await flushMicrotasks(20);
    }
    expect(row()).toEqual({ status: 'published', error_message: null });
    const conn = w.db.prepare("SELECT status, token_expires_at FROM connections WHERE platform = 'twitter'").get() as { status: string; token_expires_at: number };
    expect(conn.status).toBe('active');
    expect(conn.token_expires_at).toBeGreaterThan(w.clock.now());
  });
});

describe('the YouTube upload quota', () => {
  it('reschedules a target refused with quotaExceeded to midnight Pacific and publishes it then', async () => {
    let sim: ReturnType<typeof createYoutubeSimulator> | undefined;
    const w = await world([
      (deps) => {
        sim = createYoutubeSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.db), insertsPerDay: 0 });
        const app = new Hono();
        for (const { host, app: a } of sim.apps) app.route(`/${host}`, a);
        return { hosts: sim.apps.map((a) => a.host), app };
      },
    ], Date.UTC(2026, 11, 26, 7, 58));
    const video = await prepare(w, `${await origin()}/q.mp4`);
    const res = await w.call('POST', '/content/publish', { publish_now: true, caption: 'Over quota', platforms: ['youtube'], media_urls: [video] });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const row = () => w.db.prepare('SELECT status, next_attempt_at, platform_code, post_id FROM targets').get() as { status: string; next_attempt_at: number | null; platform_code: string | null; post_id: string | null };
    for (let i = 0; i < 30 && row().platform_code === null; i++) {
      await w.clock.advance(1_000);
      await flushMicrotasks(20);
    }
    // 23:58 PST on the 25th: the quota resets at midnight Pacific, 08:00 UTC on the 26th.
    const reset = Date.UTC(2026, 11, 26, 8);
    expect(row()).toMatchObject({ status: 'scheduled', next_attempt_at: reset, platform_code: 'quotaExceeded' });
    sim!.settings.insertsPerDay = 100;
    await w.clock.advance(reset - w.clock.now() + 1_000);
    for (let i = 0; i < 30 && row().status !== 'published'; i++) {
      await w.clock.advance(1_000);
      await flushMicrotasks(20);
    }
    expect(row().status).toBe('published');
    expect(listSandboxPosts(w.db, { platform: 'youtube' }).map((p) => p.postId)).toEqual([row().post_id]);
  });
});
