import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { serve, type ServerType } from '@hono/node-server';
import type { Platform } from '@socialpub/core';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { MediaItem, PlatformAdapter, PublishContext, ReconcileResult } from '../../../src/platforms/adapter';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter';
import { createInstagramAdapter } from '../../../src/platforms/instagram/adapter';
import { MetaSimulator } from '../../../src/platforms/meta/sim/simulator';
import { sandboxPostRemoval, sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import { simState } from '../../../src/platforms/shared/sim/sim-state';
import { createThreadsAdapter } from '../../../src/platforms/threads/adapter';
import { createTiktokAdapter } from '../../../src/platforms/tiktok/adapter';
import { createTiktokSimulator } from '../../../src/platforms/tiktok/sim/simulator';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import { createTwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import { createYoutubeAdapter } from '../../../src/platforms/youtube/adapter';
import { createYoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { openDatabase, type DB } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { context, drive, mediaFile } from '../meta/harness';
import { fakeBytes, mediaFile as sharedMediaFile } from './harness';
import { sandboxStore } from '../../support/sandbox-records';

/**
 * Issue 28 item 4: a simulated post and the state that says it was made are one
 * transaction, so a SIGKILL leaves the simulated platform consistent. The simulator runs
 * over a SQLite file; at the kill the file's committed state is copied (what a SIGKILL
 * leaves on disk: a second connection sees only committed transactions) and the publish
 * is abandoned with whatever checkpoint it had saved. A new simulator over that copy then
 * meets the daemon's recovery: reconcile, and publish again when reconcile says it was not
 * published. Two kill moments:
 *  - "mid-write": right after the simulator wrote the post's sandbox_posts row, before the
 *    rest of the request's writes (the container marked published, the upload session's end);
 *  - "before the answer": after all of the simulator's writes, before the response leaves.
 * Either way the platform ends with exactly one post. Before the fix the first moment
 * doubled Threads posts (the container still FINISHED) and YouTube videos (the session
 * still open, resumed into a second video).
 */

const dir = mkdtempSync(join(tmpdir(), 'sp-sim-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

type Moment = 'mid-write' | 'before the answer';

/** A simulator database on disk that can be "killed": `snapshot()` is its committed state, as a SIGKILL leaves it. */
function killableDb(onPostRow: () => void) {
  const path = join(dir, `sim-${++files}.db`);
  const db = openDatabase(path);
  const reader = new Database(path);
  let postRows = 0;
  const statement = (stmt: Database.Statement, sql: string) =>
    new Proxy(stmt, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'run' && /INSERT INTO sandbox_posts/.test(sql)) {
          return (...args: unknown[]) => {
            const result = (target.run as (...a: unknown[]) => Database.RunResult)(...args);
            postRows += 1;
            onPostRow();
            return result;
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => statement(target.prepare(sql), sql);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as DB;
  return {
    db: wrapped,
    postRows: () => postRows,
    snapshot: () => reader.serialize(),
    close() {
      reader.close();
      db.close();
    },
  };
}

interface World {
  app: Hono;
  /** Posts of `platform` the simulated platform holds (its own state), and its sandbox_posts rows. */
  count(): { platform: number; rows: number };
}

interface Case {
  name: string;
  platform: Platform;
  adapter: PlatformAdapter;
  /** A simulator over `db`, on `clock`. */
  world(db: DB, clock: ManualClock): World;
  ctx(clock: ManualClock, baseUrl: (host: string) => string, checkpoint?: Record<string, unknown>): PublishContext;
  /** TikTok: the post is made with the upload's last chunk and written down when its status is read, so a kill there finds it made. */
  recordedOnRead?: boolean;
}

const image = mediaFile('image');
const video = sharedMediaFile('v.mp4', fakeBytes('mp4', 300_000), 'video', 'video/mp4');
const metaCtx = (platform: Platform, type: string, caption: string, media: MediaItem[]) => (clock: ManualClock, baseUrl: (h: string) => string, checkpoint?: Record<string, unknown>) =>
  context({ clock, baseUrl } as never, { platform, type: type as never, caption, media, checkpoint });

const rows = (db: DB, platform: Platform) => db.prepare('SELECT count(*) FROM sandbox_posts WHERE platform = ?').pluck().get(platform) as number;

function metaWorld(platform: Platform, type: string): (db: DB, clock: ManualClock) => World {
  return (db, clock) => {
    const sim = new MetaSimulator({ clock, store: sandboxStore(db), config: { imageProcessingMs: 0, videoProcessingMs: 0 } });
    return { app: sim.app, count: () => ({ platform: [...sim.state.objects.values()].filter((o) => o._type === type).length, rows: rows(db, platform) }) };
  };
}

function sharedCtx(platform: Platform, type: string, caption: string, media: MediaItem[], secrets: Record<string, string>) {
  return (clock: ManualClock, baseUrl: (h: string) => string, checkpoint?: Record<string, unknown>): PublishContext => {
    const data: Record<string, unknown> = structuredClone(checkpoint ?? {});
    return {
      target: { id: 'tgt_kill', jobId: 'job_kill', platform, type: type as never, caption, options: {}, dueAt: clock.now(), attempt: 1, attemptStartedAt: clock.now() },
      media,
      credentials: { connectionId: 'con_kill', mode: 'sandbox', accountId: null, accountName: null, pageId: null, pageName: null, secrets, tokenExpiresAt: null, refreshExpiresAt: null, tokenObtainedAt: null, meta: {} },
      saveTokens: async () => {},
      markConnectionExpired: async () => {},
      checkpoint: { data, save: async (patch) => void Object.assign(data, structuredClone(patch)) },
      baseUrl,
      publicBaseUrl: null,
      clock,
      signal: new AbortController().signal,
      log: { debug() {}, info() {}, warn() {}, error() {} },
    };
  };
}

const CASES: Case[] = [
  { name: 'Threads text post', platform: 'threads', adapter: createThreadsAdapter({ pollIntervalMs: 1_000 }), world: metaWorld('threads', 'threads_media'), ctx: metaCtx('threads', 'post', 'A thread that must not double', []) },
  { name: 'Instagram image post', platform: 'instagram', adapter: createInstagramAdapter({ pollIntervalMs: 1_000 }), world: metaWorld('instagram', 'ig_media'), ctx: metaCtx('instagram', 'feed', 'A photo that must not double', [image]) },
  { name: 'Facebook page post', platform: 'facebook', adapter: createFacebookAdapter(), world: metaWorld('facebook', 'fb_post'), ctx: metaCtx('facebook', 'feed', 'A page post that must not double', []) },
  {
    name: 'YouTube video',
    platform: 'youtube',
    adapter: createYoutubeAdapter({ chunkBytes: 256 * 1024 }),
    world(db, clock) {
      const sim = createYoutubeSimulator({ clock, onPost: sandboxPostSink(sandboxStore(db)), onRemove: sandboxPostRemoval(sandboxStore(db)), state: simState(sandboxStore(db), 'youtube') });
      const app = new Hono();
      for (const a of sim.apps) app.route(`/${a.host}`, a.app);
      return { app, count: () => ({ platform: db.prepare("SELECT count(*) FROM sandbox_state WHERE simulator = 'youtube' AND kind = 'videos'").pluck().get() as number, rows: rows(db, 'youtube') }) };
    },
    ctx: sharedCtx('youtube', 'video', 'A video that must not double', [video], { access_token: 'sandbox_at_kill_youtube_0123456789abcdef' }),
  },
  {
    name: 'X text post',
    platform: 'twitter',
    adapter: createTwitterAdapter({ reconcileSettleMs: 0 }),
    world(db, clock) {
      const sim = createTwitterSimulator({ clock, onPost: sandboxPostSink(sandboxStore(db)), state: simState(sandboxStore(db), 'x') });
      const app = new Hono();
      app.route(`/${sim.host}`, sim.app);
      return { app, count: () => ({ platform: db.prepare("SELECT count(*) FROM sandbox_state WHERE simulator = 'x' AND kind = 'posts'").pluck().get() as number, rows: rows(db, 'twitter') }) };
    },
    ctx: sharedCtx('twitter', 'tweet', 'A tweet that must not double', [], { access_token: 'sandbox_at_kill_x_0123456789abcdef0123' }),
  },
  {
    name: 'TikTok video',
    platform: 'tiktok',
    adapter: createTiktokAdapter({ pollMs: 1_000 }),
    world(db, clock) {
      const sim = createTiktokSimulator({ clock, onPost: sandboxPostSink(sandboxStore(db)), processingMs: 0, state: simState(sandboxStore(db), 'tiktok') });
      const app = new Hono();
      app.route(`/${sim.host}`, sim.app);
      return {
        app,
        count: () => ({
          platform: (db.prepare("SELECT value FROM sandbox_state WHERE simulator = 'tiktok' AND kind = 'publishes'").pluck().all() as string[]).filter((v) => (JSON.parse(v) as { logged?: boolean }).logged).length,
          rows: rows(db, 'tiktok'),
        }),
      };
    },
    ctx: sharedCtx('tiktok', 'video', 'A clip that must not double', [video], { access_token: 'sandbox_at_kill_tiktok_0123456789abcdef' }),
    recordedOnRead: true,
  },
];

/** Serves `app` on 127.0.0.1 (`port` 0: any; the restarted simulator takes the old one, as the daemon keeps its sandbox origins, so upload URLs handed out stay valid). */
async function serveApp(app: Hono, onAnswer: () => void, port = 0): Promise<{ port: number; baseUrl: (host: string) => string; close(): Promise<void> }> {
  const root = new Hono();
  root.use('*', async (_c, next) => {
    await next();
    onAnswer();
  });
  root.route('/', app);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: root.fetch, hostname: '127.0.0.1', port }, () => resolve(s));
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${bound}`;
  return {
    port: bound,
    baseUrl: (host) => `${url}/${host}`,
    close: () =>
      new Promise<void>((r) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Publishes `c` until the simulator makes its post, "kills" everything at `moment`, recovers on the copy; what the platform then holds. */
async function killAndRecover(c: Case, moment: Moment) {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 9));
  let killed: { file: Buffer; checkpoint: Record<string, unknown> } | null = null;
  let ctx: PublishContext | null = null;
  const abort = new AbortController();
  const kill = () => {
    if (killed || !ctx) return;
    killed = { file: sim.snapshot(), checkpoint: structuredClone(ctx.checkpoint.data) };
    abort.abort();
  };
  const sim = killableDb(() => moment === 'mid-write' && kill());
  const first = c.world(sim.db, clock);
  const server = await serveApp(first.app, () => moment === 'before the answer' && sim.postRows() > 0 && kill());
  ctx = { ...c.ctx(clock, server.baseUrl), signal: abort.signal };
  await drive(clock, c.adapter.publish(ctx)).catch(() => undefined);
  await server.close();
  sim.close();
  expect(killed, `${c.name}: the kill happened`).not.toBeNull();
  const { file, checkpoint } = killed as unknown as { file: Buffer; checkpoint: Record<string, unknown> };

  // The restart: a new simulator over what the kill left on disk, and the publisher's recovery.
  const copy = join(dir, `restarted-${++files}.db`);
  writeFileSync(copy, file);
  const db = openDatabase(copy);
  const again = c.world(db, clock);
  const server2 = await serveApp(again.app, () => undefined, server.port);
  try {
    const left = again.count();
    const recovery = c.ctx(clock, server2.baseUrl, checkpoint);
    const result: ReconcileResult = await drive(clock, c.adapter.reconcile(recovery));
    let postId = result.state === 'published' ? result.outcome.postId : null;
    if (result.state === 'not_published') postId = (await drive(clock, c.adapter.publish(recovery))).postId;
    return { left, result: result.state, postId, end: again.count() };
  } finally {
    await server2.close();
    db.close();
  }
}

describe('a kill inside a simulator leaves the simulated platform consistent', () => {
  for (const c of CASES) {
    it(`${c.name}: killed between the simulator's writes, the platform holds no half-made post, and recovery makes exactly one`, { timeout: 20_000 }, async () => {
      const r = await killAndRecover(c, 'mid-write');
      // Never two: before the fix, Threads and YouTube ended here with two posts.
      expect(r.end, `${c.name}: after recovery`).toEqual({ platform: 1, rows: 1 });
      // Nothing of the interrupted request survived: its post row without the state saying it was made would be a half-made post.
      expect(r.left, `${c.name}: what the kill left`).toEqual({ platform: 0, rows: 0 });
      expect(r.result).toBe(c.recordedOnRead ? 'published' : 'not_published');
      expect(r.postId).not.toBeNull();
    });

    it(`${c.name}: killed after the simulator's writes and before its answer, reconcile reads the post back`, { timeout: 20_000 }, async () => {
      const r = await killAndRecover(c, 'before the answer');
      expect(r.left).toEqual({ platform: 1, rows: 1 });
      expect(r.result).toBe('published');
      expect(r.end).toEqual({ platform: 1, rows: 1 });
    });
  }
});
