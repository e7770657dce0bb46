import type { Platform, TargetStatus } from '@socialpub/core';
import type { Credentials, MediaItem } from '../../src/platforms/adapter';
import type { ConnectionSource } from '../../src/publisher/connection-source';
import type { PublisherOptions, Settled } from '../../src/publisher/publisher';
import type { SchedulerOptions } from '../../src/scheduler/scheduler';
import type { MediaResolver } from '../../src/ports/media';
import type { DB } from '../../src/store/database';
import { PLATFORMS } from '@socialpub/core';
import { afterEach } from 'vitest';
import { createTestAdapters, MemoryLedger } from '../support/test-adapter';
import { Publisher } from '../../src/publisher/publisher';
import { Scheduler } from '../../src/scheduler/scheduler';
import { openTestDatabase } from '../support/store-dialects';
import { createTargetQueue } from '../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';

export const T0 = Date.UTC(2026, 11, 25, 9, 0, 0);
export const USER = 'user-1';

let seq = 0;

export interface TargetRow {
  id: string;
  status: TargetStatus;
  due_at: number;
  attempts: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  lease_owner: string | null;
  checkpoint: string;
  attempt_started_at: number | null;
  post_id: string | null;
  post_url: string | null;
  published_at: number | null;
  error_code: string | null;
  error_message: string | null;
  platform_code: string | null;
}

/** Inserts a user, an active sandbox connection per platform, and nothing else. */
export function seedUser(db: DB, now: number, userId = USER): void {
  db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run(userId, `${userId}@example.test`, now);
  const add = db.prepare(
    "INSERT INTO connections (id, user_id, platform, mode, status, created_at, updated_at) VALUES (?, ?, ?, 'sandbox', 'active', ?, ?)",
  );
  for (const p of PLATFORMS) add.run(`con_${userId}_${p}`, userId, p, now, now);
}

/** Inserts a job with one target; returns the target id. */
export function insertTarget(
  db: DB,
  t: { due: number; platform?: Platform; status?: TargetStatus; caption?: string; mediaUrls?: string[]; userId?: string; id?: string },
): string {
  const n = ++seq;
  const id = t.id ?? `tgt_${String(n).padStart(6, '0')}`;
  const jobId = `job_${id}`;
  const platform = t.platform ?? 'twitter';
  const userId = t.userId ?? USER;
  db.prepare(
    'INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(jobId, userId, t.caption ?? `post ${id}`, JSON.stringify([platform]), JSON.stringify(t.mediaUrls ?? []), t.due, t.due, t.due, t.due);
  db.prepare(
    "INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, ?, ?)",
  ).run(id, jobId, userId, platform, t.due, t.status ?? 'scheduled', t.due);
  return id;
}

export function fakeConnections(db: DB): ConnectionSource & { saved: unknown[] } {
  const saved: unknown[] = [];
  return {
    saved,
    credentialsFor(userId, platform): Credentials | null {
      const r = db.prepare('SELECT id, mode FROM connections WHERE user_id = ? AND platform = ?').get(userId, platform) as
        | { id: string; mode: 'live' | 'sandbox' }
        | undefined;
      if (!r) return null;
      return {
        connectionId: r.id,
        mode: r.mode,
        accountId: 'acct',
        accountName: 'Test account',
        pageId: null,
        pageName: null,
        secrets: { access_token: 'sandbox-token' },
        tokenExpiresAt: null,
        refreshExpiresAt: null,
        tokenObtainedAt: null,
        meta: {},
      };
    },
    saveTokens(connectionId, update) {
      saved.push({ connectionId, update });
    },
    markExpired(connectionId, reason) {
      db.prepare("UPDATE connections SET status = 'expired', status_reason = ? WHERE id = ?").run(reason, connectionId);
    },
  };
}

export const fakeMedia: MediaResolver = {
  resolve: async (_userId, urls): Promise<MediaItem[]> =>
    urls.map((url) => ({ url, kind: 'image', mimeType: 'image/jpeg', size: 1000, publicUrl: url, path: '/tmp/none.jpg', sha256: null })),
};

export interface WorldOptions {
  scheduler?: Partial<SchedulerOptions>;
  publisher?: Partial<PublisherOptions>;
  db?: DB;
  clock?: ManualClock;
  /** Delay of every test adapter before it posts, on the clock ([min, max]). */
  latencyMs?: [number, number];
  /** The platform side's record, shared between a world and its restarted successor. */
  ledger?: MemoryLedger;
}

/** A store, a ManualClock, test adapters on every platform, a scheduler and a publisher wired together. */
export function makeWorld(opts: WorldOptions = {}) {
  const clock = opts.clock ?? new ManualClock(T0);
  const fresh = !opts.db;
  const db = opts.db ?? openTestDatabase(':memory:');
  if (fresh) seedUser(db, clock.now());
  const queue = createTargetQueue(db);
  const ledger = opts.ledger ?? new MemoryLedger();
  const adapters = createTestAdapters(ledger, opts.latencyMs ? { latencyMs: opts.latencyMs } : {});
  const connections = fakeConnections(db);
  const settled: Settled[] = [];
  // eslint-disable-next-line prefer-const
  let publisher: Publisher;
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => publisher.dispatch(id), ...opts.scheduler });
  publisher = new Publisher({
    queue,
    clock,
    adapters,
    connections,
    media: fakeMedia,
    scheduler,
    random: () => 1,
    sandboxBaseUrl: (p, host) => `http://127.0.0.1:1/sandbox/${p}/${host}`,
    ...opts.publisher,
  });
  publisher.onSettled((s) => settled.push(s));

  const row = (id: string): TargetRow => db.prepare('SELECT * FROM targets WHERE id = ?').get(id) as TargetRow;
  const attempts = (id: string) =>
    db.prepare('SELECT number, outcome, error_code, error_message, platform_code, started_at, ended_at FROM attempts WHERE target_id = ? ORDER BY id').all(id) as {
      number: number;
      outcome: string | null;
      error_code: string | null;
      error_message: string | null;
      platform_code: string | null;
      started_at: number;
      ended_at: number | null;
    }[];

  return {
    clock,
    db,
    queue,
    ledger,
    adapters,
    adapter: (p: Platform) => adapters.get(p)!,
    connections,
    scheduler,
    publisher,
    settled,
    row,
    attempts,
    add: (t: Parameters<typeof insertTarget>[1]) => insertTarget(db, t),
    async start() {
      publisher.start();
      await scheduler.start();
      await this.settle();
    },
    /** Lets the loop, dispatches and attempts already started run to their end. */
    async settle() {
      // An attempt that ends may put its target back in the wheel, which fires it again at once.
      for (let i = 0; i < 20; i++) {
        await flushMicrotasks();
        if (publisher.busy === 0) return;
        await publisher.whenIdle();
      }
    },
    /** Moves the clock by `ms` and lets everything that fell due run. */
    async advance(ms: number) {
      await clock.advance(ms);
      await this.settle();
    },
    async stop() {
      await scheduler.stop();
      await publisher.stop(0);
    },
  };
}

export type World = ReturnType<typeof makeWorld>;

/**
 * Registers an afterEach that stops every world a test made, and returns the maker of those worlds.
 * Their scheduler sweeps only when a test sets sweepMs, so each test drives the timing itself.
 */
export function useWorlds(): (opts?: WorldOptions) => World {
  const worlds: World[] = [];
  afterEach(async () => {
    for (const w of worlds.splice(0)) await w.stop();
  });
  return (opts = {}) => {
    const w = makeWorld({ ...opts, scheduler: { sweepMs: 1e12, ...opts.scheduler } });
    worlds.push(w);
    return w;
  };
}
