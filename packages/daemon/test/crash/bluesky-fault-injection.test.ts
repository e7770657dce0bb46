import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { Credentials, MediaItem } from '../../src/platforms/adapter';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter';
import { BSKY_HOST, VIDEO_HOST } from '../../src/platforms/bluesky/pds-access';
import { createBlueskySimulator } from '../../src/platforms/bluesky/sim/simulator';
import { sandboxPostSink } from '../../src/platforms/shared/sim/sandbox-post-sink';
import type { Fault } from '../../src/platforms/shared/sim/simulator-recorder';
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
 * Bluesky through every step, as fault-injection.test.ts does for the other six: for each
 * request of each publishing sequence (found by one clean run), the simulator does the
 * work and then either holds the answer while the publisher is stopped mid-attempt (as
 * after SIGKILL; nothing written after that point) and a new publisher starts over the
 * same store, or drops the connection (a timeout). The record keys are chosen before the
 * call, so every target must end `published` with each of its posts exactly once: no
 * post doubled, none lost, and no needs_review (the PDS can always say).
 */

const dir = mkdtempSync(join(tmpdir(), 'sp-bsky-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(20_000, 9)]);
writeFileSync(join(dir, 'a.jpg'), JPEG);
writeFileSync(join(dir, 'a.mp4'), MP4);
const IMAGE: MediaItem = { url: 'https://cdn.example.com/a.jpg', kind: 'image', mimeType: 'image/jpeg', size: JPEG.length, publicUrl: null, path: join(dir, 'a.jpg'), sha256: null };
const VIDEO: MediaItem = { url: 'https://cdn.example.com/a.mp4', kind: 'video', mimeType: 'video/mp4', size: MP4.length, publicUrl: null, path: join(dir, 'a.mp4'), sha256: null };

interface Sequence {
  name: string;
  media: MediaItem[];
  followUps?: { thread?: Array<{ caption: string }>; first_comment?: string };
  /** Posts the target makes (the post, its parts, its comment). */
  posts: number;
}

const SEQUENCES: Sequence[] = [
  { name: 'text post with facets', media: [], posts: 1 },
  { name: 'post with an image', media: [IMAGE], posts: 1 },
  { name: 'post with a video', media: [VIDEO], posts: 1 },
  { name: 'thread of three with a first comment', media: [], followUps: { thread: [{ caption: 'Part 2' }, { caption: 'Part 3' }], first_comment: 'Comment' }, posts: 4 },
];

interface Step {
  host: string;
  method: string;
  path: string;
  skip: number;
}

async function makeWorld() {
  const clock = new ManualClock(T0);
  const db = openDatabase(':memory:');
  db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run('u1', 'u1@example.test', T0);
  const sim = createBlueskySimulator({ clock, onPost: sandboxPostSink(sandboxStore(db)), processingMs: 2_000 });
  const root = new Hono();
  root.route(`/${BSKY_HOST}`, sim.pds);
  root.route(`/${VIDEO_HOST}`, sim.video);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: root.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const connections: ConnectionSource = {
    credentialsFor(): Credentials {
      return {
        connectionId: 'con_bluesky',
        mode: 'sandbox',
        accountId: null,
        accountName: 'Sandbox',
        pageId: null,
        pageName: null,
        secrets: { access_token: 'sandbox_at_faults.0123456789abcdef', refresh_token: 'sandbox_rt_faults.0123456789abcdef' },
        tokenExpiresAt: T0 + 30 * 86_400_000,
        refreshExpiresAt: null,
        tokenObtainedAt: T0 - 86_400_000,
        meta: { sandbox: true },
      };
    },
    saveTokens() {},
    markExpired() {},
  };
  db.prepare("INSERT INTO connections (id, user_id, platform, mode, status, created_at, updated_at) VALUES ('con_bluesky', 'u1', 'bluesky', 'sandbox', 'active', ?, ?)").run(T0, T0);
  let mediaOf: MediaItem[] = [];
  const media: MediaResolver = { resolve: async () => mediaOf };
  const queue = createTargetQueue(db);
  const adapters = new Map([['bluesky' as const, createBlueskyAdapter({ requestTimeoutMs: 5_000, linkCards: null })]]);
  let publisher: Publisher;
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => publisher.dispatch(id) });
  const newPublisher = () =>
    new Publisher({ queue, clock, adapters, connections, media, scheduler, random: () => 0, backoff: { baseMs: 2_000, capMs: 10_000 }, sandboxBaseUrl: (_p, host) => `${url}/${host}` });
  publisher = newPublisher();
  publisher.start();
  await scheduler.start();

  const row = (id: string) => db.prepare('SELECT status, post_id, error_code, error_message, follow_ups FROM targets WHERE id = ?').get(id) as { status: string; post_id: string | null; error_message: string | null; follow_ups: string };
  const posts = () => db.prepare("SELECT post_id, body FROM sandbox_posts WHERE platform = 'bluesky' ORDER BY rowid").all() as Array<{ post_id: string; body: string }>;

  return {
    clock,
    sim,
    row,
    posts,
    add(seq: Sequence): string {
      mediaOf = seq.media;
      const id = 'tgt_bluesky_fault';
      db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at, follow_ups) VALUES (?, 'u1', ?, ?, ?, ?, ?, ?, ?, ?)").run(
        `job_${id}`,
        `Fault test ${seq.name} #once https://example.invalid/x`,
        JSON.stringify(['bluesky']),
        JSON.stringify(seq.media.map((m) => m.url)),
        T0,
        T0,
        T0,
        T0,
        JSON.stringify(seq.followUps ?? {}),
      );
      db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at, checkpoint) VALUES (?, ?, 'u1', 'bluesky', 'post', ?, 'scheduled', ?, '{}')").run(id, `job_${id}`, T0, T0);
      scheduler.targetsChanged([id]);
      return id;
    },
    steps(): Step[] {
      const seen = new Map<string, number>();
      return sim.log.requests.map((r) => {
        const key = `${r.host} ${r.method} ${r.path}`;
        const skip = seen.get(key) ?? 0;
        seen.set(key, skip + 1);
        return { host: r.host, method: r.method, path: r.path, skip };
      });
    },
    inject(step: Step, mode: 'crash' | 'timeout'): () => boolean {
      const before = sim.log.requests.filter((r) => r.status === -1).length;
      const fault: Fault = { method: step.method, path: step.path, skip: step.skip, kind: mode === 'crash' ? 'hang-after' : 'reset-after' };
      sim.log.inject(fault);
      return () => sim.log.requests.filter((r) => r.status === -1).length > before;
    },
    async crashAndRestart() {
      await publisher.stop(0);
      publisher = newPublisher();
      publisher.start();
    },
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

const TERMINAL = new Set(['published', 'needs_review', 'failed']);

describe('bluesky: a crash or a timeout right after every step', () => {
  it.each(SEQUENCES)('$name: ends published with each post exactly once', { timeout: 120_000 }, async (seq) => {
    const clean = await makeWorld();
    let steps: Step[];
    try {
      const id = clean.add(seq);
      await clean.runUntil(() => TERMINAL.has(clean.row(id).status));
      expect(clean.row(id), seq.name).toMatchObject({ status: 'published' });
      expect(clean.posts()).toHaveLength(seq.posts);
      steps = clean.steps();
    } finally {
      await clean.close();
    }
    expect(steps.length).toBeGreaterThan(seq.posts);
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
          const posts = w.posts();
          expect(end.status, `${label}: ${end.error_message}`).toBe('published');
          // Each post once: as many records as the clean run made, no URI twice, the target's post among them.
          expect(posts, label).toHaveLength(seq.posts);
          expect(new Set(posts.map((p) => p.post_id)).size, label).toBe(seq.posts);
          expect(posts[0]!.post_id, label).toBe(end.post_id);
          if (seq.followUps?.thread) {
            const chain = (JSON.parse(end.follow_ups) as { thread: Array<{ post_id: string }> }).thread.map((p) => p.post_id);
            expect(chain, label).toEqual(posts.slice(0, 3).map((p) => p.post_id));
          }
          outcomes.push(`${mode}@${i + 1}`);
        } finally {
          await w.close();
        }
      }
    }
    console.log(`bluesky faults, ${seq.name}: ${steps.length} steps x 2 modes, ${outcomes.length} runs, all published once`);
    expect(outcomes).toHaveLength(steps.length * 2);
  });
});
