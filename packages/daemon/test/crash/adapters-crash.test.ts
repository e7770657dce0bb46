import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentType, Platform } from '@socialpub/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/store/database';
import { startDaemonChild } from './spawn-daemon';

/**
 * Issue 28: the crash test across every adapter step. The daemon (real scheduler,
 * publisher, the six real adapters, and the sandbox simulators inside the same process
 * over the same SQLite file, as `socialpub up` runs them) publishes USERS × 6 targets of
 * every kind (text, images, videos, stories, reels; chunked and resumable uploads, media
 * containers, status polls) and is SIGKILLed at random moments, then started again each
 * time. In the end every simulated account (one per target) is counted: 0 doubled posts,
 * 0 lost (a target published whose post the platform does not hold, or a post the
 * platform holds for a target not published), at most a handful needs_review, each with
 * its reason printed.
 *
 * The moments come from a seeded PRNG: the seed is printed, and CRASH_SEED=<seed> replays
 * the same plan (kill moments and target mix; the daemon's own timing still varies).
 * CRASH_USERS and CRASH_KILLS change the size (defaults 110 users = 660 targets, 6 kills).
 */

const CHILD = fileURLToPath(new URL('./adapters-child.ts', import.meta.url));
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const USERS = Number(process.env.CRASH_USERS ?? 110);
const KILLS = Number(process.env.CRASH_KILLS ?? 6);
const SPAN_MS = 20_000;
/** needs_review allowed in all: "a handful", each explained. */
const REVIEW_BUDGET = 5;

const dir = mkdtempSync(join(tmpdir(), 'socialpub-adapters-crash-'));
/** The daemon child running now: killed after the test whatever happened, so none is left behind. */
let running: ReturnType<typeof startDaemonChild> | null = null;
afterAll(async () => {
  if (running && running.child.exitCode === null && running.child.signalCode === null) {
    running.ready.catch(() => undefined);
    running.child.kill('SIGKILL');
    await running.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(2_000, 7), Buffer.from([0xff, 0xd9])]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(600_000, 9)]);

/** mulberry32: a small seeded PRNG, [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What each user publishes on each platform: every adapter's publishing sequences, picked by the PRNG. */
const KINDS: Partial<Record<Platform, { type: ContentType; media: string[] }[]>> = {
  twitter: [
    { type: 'tweet', media: [] },
    { type: 'tweet', media: ['a.jpg'] },
  ],
  threads: [
    { type: 'post', media: [] },
    { type: 'post', media: ['a.jpg'] },
  ],
  instagram: [
    { type: 'feed', media: ['a.jpg'] },
    { type: 'feed', media: ['a.jpg', 'b.jpg'] },
    { type: 'story', media: ['a.jpg'] },
  ],
  facebook: [
    { type: 'feed', media: [] },
    { type: 'feed', media: ['a.jpg'] },
    { type: 'feed', media: ['a.jpg', 'b.jpg'] },
    { type: 'story', media: ['a.jpg'] },
    { type: 'reels', media: ['a.mp4'] },
  ],
  tiktok: [{ type: 'video', media: ['a.mp4'] }],
  youtube: [{ type: 'video', media: ['a.mp4'] }],
};
const PLATFORMS = Object.keys(KINDS) as Platform[];

function seed(db: DB, t0: number, random: () => number): number {
  const user = db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)');
  const conn = db.prepare("INSERT INTO connections (id, user_id, platform, mode, status, created_at, updated_at) VALUES (?, ?, ?, 'sandbox', 'active', ?, ?)");
  const job = db.prepare('INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'scheduled', ?)");
  let n = 0;
  db.transaction(() => {
    for (let u = 0; u < USERS; u++) {
      const userId = `u${u}`;
      user.run(userId, `${userId}@example.test`, t0);
      for (const platform of PLATFORMS) {
        conn.run(`con_${userId}_${platform}`, userId, platform, t0, t0);
        const kinds = KINDS[platform]!;
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        const due = t0 + Math.floor(random() * SPAN_MS);
        const id = `tgt_${userId}_${platform}`;
        job.run(`job_${id}`, userId, `Crash test ${id}: one post, never two`, JSON.stringify([platform]), JSON.stringify(kind.media.map((m) => `https://cdn.example.com/${m}`)), due, due, t0, t0);
        target.run(id, `job_${id}`, userId, platform, kind.type, due, t0);
        n++;
      }
    }
  })();
  return n;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Kinds of sandbox_posts rows that are not a target's post (follow-ups). */
const FOLLOW_UP_KINDS = new Set(['comment', 'thumbnail', 'playlist_item']);

describe('crash safety across every adapter step', () => {
  it(`publishes ${USERS * 6} targets on all six platforms through ${KILLS} SIGKILLs: none doubled, none lost`, { timeout: 330_000 }, async () => {
    console.log(`adapters crash test: seed ${SEED} (replay with CRASH_SEED=${SEED})`);
    const random = prng(SEED);
    writeFileSync(join(dir, 'a.jpg'), JPEG);
    writeFileSync(join(dir, 'a.mp4'), MP4);
    const dbPath = join(dir, 'socialpub.db');
    const db = openDatabase(dbPath);
    const t0 = Date.now() + 3_000;
    const targets = seed(db, t0, random);
    const port = await freePort();
    const start = () => (running = startDaemonChild(CHILD, [dbPath, String(port), dir]));

    const planned = Array.from({ length: KILLS }, () => Math.floor(random() * SPAN_MS)).sort((a, b) => a - b);
    const after = Array.from({ length: KILLS }, () => 150 + Math.floor(random() * 900));
    const moments: number[] = [];
    const started = Date.now();
    let run = start();
    for (let k = 0; k < KILLS; k++) {
      await run.ready;
      // The planned moment, or (when it passed while the daemon was starting) a random moment after it is ready.
      await wait(Math.max(after[k] as number, t0 + (planned[k] as number) - Date.now()));
      moments.push(Date.now() - t0);
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      run = start();
    }
    await run.ready;

    const open = db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck();
    const deadline = Date.now() + 180_000;
    while ((open.get() as number) > 0 && Date.now() < deadline) await wait(200);
    const settledAt = Date.now() - t0;
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    const rows = db.prepare('SELECT id, platform, status, post_id, error_code, error_message, due_at, published_at FROM targets').all() as {
      id: string;
      due_at: number;
      published_at: number | null;
      platform: Platform;
      status: string;
      post_id: string | null;
      error_code: string | null;
      error_message: string | null;
    }[];
    const posts = (db.prepare('SELECT platform, account_id, post_id, kind FROM sandbox_posts WHERE removed_at IS NULL').all() as { platform: Platform; account_id: string | null; post_id: string; kind: string }[]).filter(
      (p) => !FOLLOW_UP_KINDS.has(p.kind),
    );
    const outcomes = Object.fromEntries((db.prepare('SELECT outcome, count(*) AS n FROM attempts GROUP BY outcome').all() as { outcome: string; n: number }[]).map((r) => [r.outcome, r.n]));
    // Where the kills landed: per platform, attempts a restart found published (killed after the post was made) or not.
    const reconciled: Record<string, Record<string, number>> = {};
    for (const r of db
      .prepare("SELECT t.platform, a.outcome, count(*) AS n FROM attempts a JOIN targets t ON t.id = a.target_id WHERE a.outcome LIKE 'reconciled_%' GROUP BY t.platform, a.outcome")
      .all() as { platform: string; outcome: string; n: number }[]) {
      (reconciled[r.platform] ??= {})[r.outcome.replace('reconciled_', '')] = r.n;
    }
    db.close();

    // One simulated account per target: more than one post on an account is a double.
    const perAccount = new Map<string, number>();
    for (const p of posts) perAccount.set(`${p.platform}/${p.account_id}`, (perAccount.get(`${p.platform}/${p.account_id}`) ?? 0) + 1);
    const doubles = [...perAccount.entries()].filter(([, n]) => n > 1).map(([k, n]) => `${k} × ${n}`);
    const held = new Set(posts.map((p) => `${p.platform}/${p.post_id}`));
    const published = rows.filter((r) => r.status === 'published');
    const review = rows.filter((r) => r.status === 'needs_review');
    // Lost: published but not on the platform, or on the platform with no target published for it.
    const lostPublished = published.filter((r) => !held.has(`${r.platform}/${r.post_id}`)).map((r) => `${r.id} (${r.post_id})`);
    const claimed = new Set(published.map((r) => `${r.platform}/${r.post_id}`));
    const reviewAccounts = review.length;
    const unclaimed = posts.filter((p) => !claimed.has(`${p.platform}/${p.post_id}`)).map((p) => `${p.platform}/${p.post_id}`);
    const counts = Object.fromEntries(PLATFORMS.map((p) => [p, rows.filter((r) => r.platform === p && r.status === 'published').length]));
    const lateness = Object.fromEntries(
      PLATFORMS.map((p) => {
        const ms = published.filter((r) => r.platform === p).map((r) => (r.published_at ?? 0) - r.due_at).sort((a, b) => a - b);
        return [p, { p50: ms[Math.floor(ms.length / 2)] ?? null, max: ms.at(-1) ?? null }];
      }),
    );
    const figures = {
      seed: SEED,
      targets,
      kills: moments.length,
      killMomentsMs: moments,
      settledAtMs: settledAt,
      wallMs: Date.now() - started,
      published: published.length,
      publishedPerPlatform: counts,
      msFromDueToPublished: lateness,
      needsReview: review.map((r) => `${r.id}: ${r.error_message}`),
      failed: rows.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.error_code} ${r.error_message}`),
      doubles,
      lost: [...lostPublished, ...unclaimed],
      attempts: outcomes,
      reconciledPerPlatform: reconciled,
    };
    console.log('adapters crash test:', JSON.stringify(figures, null, 1));

    expect(moments).toHaveLength(KILLS);
    expect(figures.doubles).toEqual([]);
    expect(lostPublished).toEqual([]);
    // A post the platform holds without a published target is only allowed for a target left to review (the person decides).
    expect(unclaimed.length).toBeLessThanOrEqual(reviewAccounts);
    expect(figures.failed).toEqual([]);
    expect(rows.filter((r) => r.status === 'scheduled' || r.status === 'publishing').map((r) => r.id)).toEqual([]);
    expect(review.length).toBeLessThanOrEqual(REVIEW_BUDGET);
    expect(published.length + review.length).toBe(targets);
  });
});
