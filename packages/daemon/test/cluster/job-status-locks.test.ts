import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { DB } from '../../src/store/database';
import type { PostgresDatabase } from '../../src/store/postgres/pg-database';
import { createTargetQueue, type FinishRequest } from '../../src/store/target-queue';
import { startDaemonChild } from '../crash/spawn-daemon';
import { openTestDatabase, testDatabaseConfig } from '../support/store-dialects';
import { seedUser, T0, USER } from '../scheduler/harness';

const CHILD = fileURLToPath(new URL('./claim-child.ts', import.meta.url));

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A schema (as a data dir's database) and a connection to it; `another()` opens a second, as another daemon's. */
function database() {
  const dir = mkdtempSync(join(tmpdir(), 'sp-job-locks-'));
  const path = join(dir, 'socialpub.db');
  const open = () => {
    const db = openTestDatabase(path);
    cleanups.push(() => void db.close());
    return db;
  };
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = open();
  seedUser(db, T0);
  return { db, another: open, url: testDatabaseConfig(dir).databaseUrl as string };
}

/** A job with targets of the given ids (each on its own platform), all in `status`. */
function addJob(db: DB, jobId: string, targets: Record<string, 'twitter' | 'threads' | 'facebook'>, status: string, owner: string | null = null): void {
  db.prepare(
    "INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, 'post', '[]', '[]', ?, ?, ?, ?)",
  ).run(jobId, USER, T0, T0, T0, T0);
  for (const [id, platform] of Object.entries(targets)) {
    db.prepare(
      "INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, lease_owner, lease_until, attempts, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, ?, ?, ?, 1, ?)",
    ).run(id, jobId, USER, platform, T0, status, owner, owner ? T0 + 60_000 : null, T0);
    if (owner) db.prepare('INSERT INTO attempts (target_id, number, started_at) VALUES (?, 1, ?)').run(id, T0);
  }
}

const jobStatus = (db: DB, id: string) => db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(id);

describe("a job's status when two daemons change its targets at once (PostgreSQL)", () => {
  it('is right once both ends commit, the second having waited for the first, and post.finished is sent once', () => {
    const { db, another } = database();
    addJob(db, 'job_1', { 't-x': 'twitter', 't-t': 'threads' }, 'publishing', 'me');
    expect(jobStatus(db, 'job_1')).toBe('publishing');
    // Another daemon ends t-x in a transaction it has not committed yet: it holds the job's row.
    const other = another();
    other.exec('BEGIN');
    const end = (id: string, status: 'published' | 'failed'): FinishRequest => ({
      id,
      owner: 'me',
      now: T0 + 1_000,
      detail: null,
      end:
        status === 'published'
          ? { status, postId: 'p1', postUrl: null, publishedAt: T0 + 1_000, outcome: 'published' }
          : { status, error: { code: 'platform_error', message: 'refused', platformCode: null } },
    });
    expect(createTargetQueue(other).finishMany([end('t-x', 'published')])).toEqual([true]);
    // It commits in 300 ms, while this one's end of t-t waits for the job's row.
    const client = (other as unknown as PostgresDatabase).client;
    client.send('SELECT pg_sleep(0.3)');
    client.send('COMMIT');
    const started = performance.now();
    expect(createTargetQueue(db).finishMany([end('t-t', 'failed')])).toEqual([true]);
    expect(performance.now() - started).toBeGreaterThan(150);

    // Counted with the other's published target, not from before its commit ('publishing').
    expect(db.prepare("SELECT id, status FROM targets WHERE job_id = 'job_1' ORDER BY id").all()).toEqual([
      { id: 't-t', status: 'failed' },
      { id: 't-x', status: 'published' },
    ]);
    expect(jobStatus(db, 'job_1')).toBe('partially_published');
    const finished = db.prepare("SELECT data FROM events WHERE type = 'post.finished' AND subject = 'job_1'").pluck().all() as string[];
    expect(finished.map((d) => (JSON.parse(d) as { status: string }).status)).toEqual(['partially_published']);
  });

  it('claims of the same jobs by two daemons at once, their rows met in opposite orders, both go through without a deadlock', async () => {
    const { db, url } = database();
    // The other daemon's claim meets job_2's target first, this one's job_1's (targets in insertion and id order).
    addJob(db, 'job_2', { 'c-a': 'twitter', 'p-b': 'threads' }, 'scheduled');
    addJob(db, 'job_1', { 'c-b': 'twitter', 'p-a': 'threads' }, 'scheduled');
    // Each target's job-status change takes 300 ms more after it (a loaded server), so the
    // two claims hold one job row each while they reach for the other.
    db.exec(`CREATE FUNCTION slow_status() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$;
      CREATE TRIGGER targets_zz_slow AFTER UPDATE OF status ON targets FOR EACH ROW EXECUTE FUNCTION slow_status()`);
    const child = startDaemonChild(CHILD, [url, 'daemon-b', String(T0), JSON.stringify(['c-a', 'c-b'])]);
    let out = '';
    child.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    cleanups.push(() => void child.child.kill('SIGKILL'));
    await child.ready;
    // Until the other claim holds its first job row (its first target's status change sleeps
    // in the trigger above): then this claim reaches for the rows in the opposite order.
    const sleeping = db.prepare("SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND wait_event = 'PgSleep'").pluck();
    const end = performance.now() + 10_000;
    while (Number(sleeping.get()) === 0 && performance.now() < end) await new Promise((r) => setImmediate(r));
    expect(Number(sleeping.get()), 'the other claim never reached its first status change').toBeGreaterThan(0);

    const mine = createTargetQueue(db).claimMany(['p-a', 'p-b'], T0, 'daemon-a', T0 + 60_000);
    expect(mine.map((c) => (c !== null && typeof c === 'object' ? c.id : c))).toEqual(['p-a', 'p-b']);
    expect(await child.exited).toBe(0);
    expect(out.trim().split('\n').pop()).toBe(JSON.stringify(['c-a', 'c-b']));
    expect(db.prepare("SELECT id, status, lease_owner FROM targets WHERE id IN ('c-a', 'c-b', 'p-a', 'p-b') ORDER BY id").all()).toEqual([
      { id: 'c-a', status: 'publishing', lease_owner: 'daemon-b' },
      { id: 'c-b', status: 'publishing', lease_owner: 'daemon-b' },
      { id: 'p-a', status: 'publishing', lease_owner: 'daemon-a' },
      { id: 'p-b', status: 'publishing', lease_owner: 'daemon-a' },
    ]);
    expect([jobStatus(db, 'job_1'), jobStatus(db, 'job_2')]).toEqual(['publishing', 'publishing']);
  });
});
