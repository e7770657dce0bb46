import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { ContentType, Platform } from '@socialpub/core';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { Credentials, MediaItem } from '../../src/platforms/adapter';
import { MetaSimulator } from '../../src/platforms/meta/sim/simulator';
import { createAdapters } from '../../src/platforms/registry';
import { sandboxPostSink } from '../../src/platforms/shared/sim/sandbox-post-sink';
import type { Fault as SharedFault, SimulatorLog } from '../../src/platforms/shared/sim/simulator-recorder';
import { createTiktokSimulator } from '../../src/platforms/tiktok/sim/simulator';
import { createTwitterSimulator } from '../../src/platforms/twitter/sim/simulator';
import { createYoutubeSimulator } from '../../src/platforms/youtube/sim/simulator';
import type { ConnectionSource } from '../../src/publisher/connection-source';
import { Publisher } from '../../src/publisher/publisher';
import { Scheduler } from '../../src/scheduler/scheduler';
import type { MediaResolver } from '../../src/ports/media';
import { openDatabase } from '../../src/store/database';
import { createTargetQueue } from '../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { T0 } from '../scheduler/harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Fault injection across the six adapters, in process, on a ManualClock: for every request
 * of every publishing sequence (found by running it once cleanly), the simulator's fault
 * switch makes that step happen and then either
 *  - "crash": holds the answer while the publisher is stopped mid-attempt (nothing written
 *    after that point), and a new publisher starts over the same store, as after SIGKILL; or
 *  - "timeout": drops the connection after doing the work, so the adapter never hears back.
 * Every target must end `published` with exactly one post on the platform, or
 * `needs_review` with at most one; never two posts.
 */

const dir = mkdtempSync(join(tmpdir(), 'sp-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(40_000, 9)]);
writeFileSync(join(dir, 'a.jpg'), JPEG);
writeFileSync(join(dir, 'a.mp4'), MP4);
const IMAGE: MediaItem = { url: 'https://cdn.example.com/a.jpg', kind: 'image', mimeType: 'image/jpeg', size: JPEG.length, publicUrl: 'https://cdn.example.com/a.jpg', path: join(dir, 'a.jpg'), sha256: null };
const VIDEO: MediaItem = { url: 'https://cdn.example.com/a.mp4', kind: 'video', mimeType: 'video/mp4', size: MP4.length, publicUrl: 'https://cdn.example.com/a.mp4', path: join(dir, 'a.mp4'), sha256: null };

interface Sequence {
  name: string;
  platform: Platform;
  type: ContentType;
  media: MediaItem[];
}

const SEQUENCES: Sequence[] = [
  { name: 'X text tweet', platform: 'twitter', type: 'tweet', media: [] },
  { name: 'X tweet with an image', platform: 'twitter', type: 'tweet', media: [IMAGE] },
  { name: 'Threads text post', platform: 'threads', type: 'post', media: [] },
  { name: 'Instagram image post', platform: 'instagram', type: 'feed', media: [IMAGE] },
  { name: 'Facebook page post', platform: 'facebook', type: 'feed', media: [] },
  { name: 'TikTok video', platform: 'tiktok', type: 'video', media: [VIDEO] },
  { name: 'YouTube video', platform: 'youtube', type: 'video', media: [VIDEO] },
];

/** A request a simulator received: where a fault can be put. */
interface Step {
  family: 'meta' | 'shared';
  host: string;
  method: string;
  path: string;
  /** Identical requests before it in the sequence. */
  skip: number;
}

/** Simulators, a store, a scheduler and a publisher; the publisher can be crashed and replaced. */
async function makeWorld() {
  const clock = new ManualClock(T0);
  const db = openDatabase(':memory:');
  db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run('u1', 'u1@example.test', T0);
  const sink = sandboxPostSink(sandboxStore(db));
  const meta = new MetaSimulator({ clock, store: sandboxStore(db), config: { imageProcessingMs: 0, videoProcessingMs: 2_000 } });
  const x = createTwitterSimulator({ clock, onPost: sink, processingMs: 1_000 });
  const tiktok = createTiktokSimulator({ clock, onPost: sink, processingMs: 1_000 });
  const youtube = createYoutubeSimulator({ clock, onPost: sink });
  const shared: Record<string, SimulatorLog> = { [x.host]: x.log, [tiktok.host]: tiktok.log };
  const root = new Hono();
  root.route('/', meta.app);
  root.route(`/${x.host}`, x.app);
  root.route(`/${tiktok.host}`, tiktok.app);
  for (const a of youtube.apps) {
    root.route(`/${a.host}`, a.app);
    shared[a.host] = youtube.log;
  }
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: root.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const connections: ConnectionSource = {
    credentialsFor(userId, platform): Credentials {
      return {
        connectionId: `con_${platform}`,
        mode: 'sandbox',
        accountId: platform === 'facebook' ? 'sandbox_user' : `sandbox_${platform}`,
        accountName: 'Sandbox',
        pageId: platform === 'facebook' ? 'sandbox_page' : null,
        pageName: platform === 'facebook' ? 'Sandbox page' : null,
        secrets: { access_token: `sandbox_at_${platform}0123456789abcdef0123456789ab`, refresh_token: `sandbox_rt_${userId}` },
        tokenExpiresAt: T0 + 30 * 86_400_000,
        refreshExpiresAt: null,
        tokenObtainedAt: T0 - 86_400_000 * 2,
        meta: { sandbox: true },
      };
    },
    saveTokens() {},
    markExpired() {},
  };
  const add = db.prepare("INSERT INTO connections (id, user_id, platform, mode, status, created_at, updated_at) VALUES (?, 'u1', ?, 'sandbox', 'active', ?, ?)");
  for (const p of ['twitter', 'threads', 'instagram', 'facebook', 'tiktok', 'youtube']) add.run(`con_${p}`, p, T0, T0);
  let mediaOf: MediaItem[] = [];
  const media: MediaResolver = { resolve: async () => mediaOf };
  const queue = createTargetQueue(db);
  const adapters = createAdapters();
  let publisher: Publisher;
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => publisher.dispatch(id) });
  const newPublisher = () =>
    new Publisher({
      queue,
      clock,
      adapters,
      connections,
      media,
      scheduler,
      random: () => 0,
      backoff: { baseMs: 2_000, capMs: 10_000 },
      sandboxBaseUrl: (_p, host) => `${url}/${host}`,
    });
  publisher = newPublisher();
  publisher.start();
  await scheduler.start();

  const row = (id: string) => db.prepare('SELECT status, post_id, error_code, error_message FROM targets WHERE id = ?').get(id) as { status: string; post_id: string | null; error_code: string | null; error_message: string | null };
  const posts = (platform: Platform) => db.prepare('SELECT post_id FROM sandbox_posts WHERE platform = ?').pluck().all(platform) as string[];

  return {
    clock,
    db,
    meta,
    shared,
    row,
    posts,
    add(seq: Sequence, o: { id?: string; checkpoint?: Record<string, unknown> } = {}): string {
      mediaOf = seq.media;
      const id = o.id ?? `tgt_${seq.platform}`;
      db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, 'u1', ?, ?, ?, ?, ?, ?, ?)").run(
        `job_${id}`,
        `Fault test ${seq.name}`,
        JSON.stringify([seq.platform]),
        JSON.stringify(seq.media.map((m) => m.url)),
        T0,
        T0,
        T0,
        T0,
      );
      db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at, checkpoint) VALUES (?, ?, 'u1', ?, ?, ?, 'scheduled', ?, ?)").run(
        id,
        `job_${id}`,
        seq.platform,
        seq.type,
        T0,
        T0,
        JSON.stringify(o.checkpoint ?? {}),
      );
      scheduler.targetsChanged([id]);
      return id;
    },
    /** Every request the simulators received so far, in order. */
    steps(): Step[] {
      const seen = new Map<string, number>();
      const all = [
        ...meta.state.requests.map((r) => ({ family: 'meta' as const, host: r.host, method: r.method, path: r.path, at: r.at, order: 0 })),
        ...[...new Set(Object.values(shared))].flatMap((log) => log.requests.map((r) => ({ family: 'shared' as const, host: r.host, method: r.method, path: r.path, at: r.at, order: 0 }))),
      ];
      return all.map((r) => {
        const key = `${r.host} ${r.method} ${pattern(r.path).source}`;
        const skip = seen.get(key) ?? 0;
        seen.set(key, skip + 1);
        return { family: r.family, host: r.host, method: r.method, path: r.path, skip };
      });
    },
    /** Puts the fault on `step`: hold the answer (crash) or drop the connection (timeout), after the work is done. */
    inject(step: Step, mode: 'crash' | 'timeout'): () => boolean {
      if (step.family === 'meta') {
        const fault = { host: step.host, method: step.method, path: pattern(step.path), skip: step.skip, ...(mode === 'crash' ? { holdAfter: true } : { hangUpAfter: true }) };
        meta.state.faults.push(fault);
        return () => !meta.state.faults.includes(fault);
      }
      const log = shared[step.host]!;
      const before = log.requests.filter((r) => r.status === -1).length;
      const fault: SharedFault = { method: step.method, path: pattern(step.path), skip: step.skip, kind: mode === 'crash' ? 'hang-after' : 'reset-after' };
      log.inject(fault);
      return () => log.requests.filter((r) => r.status === -1).length > before;
    },
    /** SIGKILL-like: the publisher stops mid-attempt writing nothing more; a new one starts over the same store. */
    async crashAndRestart() {
      await publisher.stop(0);
      publisher = newPublisher();
      publisher.start();
    },
    /** Moves the clock until `done` (or the step budget runs out), letting I/O run between steps. */
    async runUntil(done: () => boolean, maxSteps = 400, stepMs = 2_000) {
      for (let i = 0; i < maxSteps && !done(); i++) {
        await flushMicrotasks(10);
        for (let t = 0; t < 20 && !done() && publisher.busy > 0; t++) await new Promise((r) => setTimeout(r, 1));
        if (done()) break;
        await clock.advance(stepMs);
      }
    },
    async close() {
      await scheduler.stop();
      await publisher.stop(0);
      await new Promise<void>((r) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => r());
      });
      db.close();
    },
  };
}

/** A path as a pattern: ids the simulators number (long digit runs) differ from world to world. */
function pattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d{6,}/g, '\\d+')}$`);
}

const TERMINAL = new Set(['published', 'needs_review', 'failed']);

/** The clean run of a sequence: its steps, and proof it publishes. */
async function cleanSteps(seq: Sequence): Promise<Step[]> {
  const w = await makeWorld();
  try {
    const id = w.add(seq);
    await w.runUntil(() => TERMINAL.has(w.row(id).status));
    expect(w.row(id), seq.name).toMatchObject({ status: 'published' });
    expect(w.posts(seq.platform)).toEqual([w.row(id).post_id]);
    return w.steps();
  } finally {
    await w.close();
  }
}

describe('fault injection across the six adapters', () => {
  it.each(SEQUENCES)('$name: a crash or a timeout right after each step ends published once or needs_review, never posted twice', { timeout: 60_000 }, async (seq) => {
    const steps = await cleanSteps(seq);
    expect(steps.length).toBeGreaterThan(0);
    const outcomes: string[] = [];
    for (const [i, step] of steps.entries()) {
      for (const mode of ['crash', 'timeout'] as const) {
        const w = await makeWorld();
        try {
          const id = w.add(seq);
          const hit = w.inject(step, mode);
          await w.runUntil(() => hit() || TERMINAL.has(w.row(id).status));
          const label = `${seq.name}, ${mode} after step ${i + 1} (${step.method} ${step.host}${step.path})`;
          expect(hit(), `${label}: the fault was reached`).toBe(true);
          if (mode === 'crash') await w.crashAndRestart();
          await w.runUntil(() => TERMINAL.has(w.row(id).status));
          const end = w.row(id);
          const posts = w.posts(seq.platform);
          expect(['published', 'needs_review'], `${label}: ${JSON.stringify(end)}`).toContain(end.status);
          if (end.status === 'published') expect(posts, label).toEqual([end.post_id]);
          else expect(posts.length, label).toBeLessThanOrEqual(1);
          outcomes.push(`${mode}@${i + 1}:${end.status}`);
        } finally {
          await w.close();
        }
      }
    }
    // Every step was tried both ways.
    expect(outcomes).toHaveLength(steps.length * 2);
  });
});

describe('a Threads container that lost its status', () => {
  it('holds back no other target: four such targets are replaced at once and a new post goes out without waiting', { timeout: 30_000 }, async () => {
    const w = await makeWorld();
    try {
      const threads = SEQUENCES.find((q) => q.platform === 'threads')!;
      // Containers the platform answers for without a status (it no longer knows them), as the probe saw after a restart.
      w.meta.state.faults.push({ method: 'GET', path: /^\/lost\d$/, times: 1_000, answer: { id: 'lost' } });
      const stuck = [1, 2, 3, 4].map((n) => w.add(threads, { id: `tgt_stuck_${n}`, checkpoint: { units: { post: { key: 'post', kind: 'post', caption: `Fault test ${threads.name}`, containerId: `lost${n}` } } } }));
      const fresh = w.add(threads, { id: 'tgt_fresh' });
      const start = w.clock.now();
      await w.runUntil(() => w.row(fresh).status === 'published', 300, 1_000);
      expect(w.row(fresh).status).toBe('published');
      // Four publishing slots were taken by the stuck targets; the new post still went out within a minute, not after 10.
      expect(w.clock.now() - start).toBeLessThan(60_000);
      await w.runUntil(() => stuck.every((id) => TERMINAL.has(w.row(id).status)), 300, 1_000);
      expect(stuck.map((id) => w.row(id)), JSON.stringify(stuck.map((id) => w.row(id)))).toEqual(stuck.map(() => expect.objectContaining({ status: 'published' })));
      expect(w.posts('threads')).toHaveLength(5);
    } finally {
      await w.close();
    }
  });
});
