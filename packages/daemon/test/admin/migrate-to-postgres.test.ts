import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdminError, openAdmin } from '../../src/admin/admin';
import { migrateToPostgres } from '../../src/admin/migrate-to-postgres';
import { readConfigFile, resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { openDatabase, openPostgres, type DB } from '../../src/store/database';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { T0 } from '../scheduler/harness';
import { postgresTestUrl } from '../support/store-dialects';
import { useTempDirs } from '../support/temp-dirs';

const tempDir = useTempDirs();
const HOUR = 3_600_000;

/** A database URL of its own in this run's cluster (the `postgres` project's). */
function freshPostgresUrl(): string {
  const base = postgresTestUrl();
  if (!base) throw new Error('this suite runs in the postgres project (vitest.config.ts postgresOnly)');
  const u = new URL(base);
  u.searchParams.set('schema', `m_${randomBytes(6).toString('hex')}`);
  return u.toString();
}

type Api = (path: string, init?: RequestInit) => Promise<{ status: number; body: Record<string, unknown> }>;
function apiOf(daemon: DaemonHandle, key: string): Api {
  return (path, init = {}) =>
    fetch(`${daemon.url}/api/agents/v1${path}`, { ...init, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...init.headers } }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));
}

/** Waits for the daemon's own work (a publish, a delivery: I/O on its event loop), up to 20 s of real time. */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await flushMicrotasks();
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every table's row count (the SQLite file, or a PostgreSQL schema). */
function counts(db: DB, postgres: boolean): Record<string, number> {
  const tables = postgres
    ? (db.prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'").pluck().all() as string[])
    : (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]);
  return Object.fromEntries(tables.filter((t) => t !== 'migrations' && t !== 'daemons').sort().map((t) => [t, Number(db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).pluck().get())]));
}

/** A webhook receiver on 127.0.0.1 that answers 500, so deliveries are attempted and recorded as failed. */
async function failingReceiver(): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(500).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, hits: () => hits, server };
}

/**
 * A SQLite data dir as a daemon leaves it: a user with two keys, sandbox connections, posts
 * published (sandbox posts), scheduled, held for approval, with changes requested,
 * cancelled, failed and needing review; a series, a queue, comments, a review link, an
 * idempotency record, events and a webhook with failed deliveries.
 */
async function populatedDataDir(clock: ManualClock): Promise<{ dir: string; key: string; scheduledJob: string; heldJob: string }> {
  const dir = tempDir('sp-migrate-');
  const admin = openAdmin(dir, { clock });
  const { api_key: key } = admin.createKey({ email: 'me@example.com', name: 'laptop' });
  admin.createKey({ email: 'me@example.com', name: 'agent', scope: 'agent' });
  admin.addSandboxConnection('twitter', { email: 'me@example.com' });
  admin.addSandboxConnection('bluesky', { email: 'me@example.com' });
  admin.close();
  const receiver = await failingReceiver();
  const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, webhookAllowPrivate: true }, {}), { clock, logger: createLogger({ level: 'silent' }) });
  const api = apiOf(daemon, key);
  const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const r = await api('/content/publish', { method: 'POST', body: JSON.stringify(body), headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.job_id as string;
  };
  const statusOf = async (job: string) => ((await api(`/content/scheduled?job_id=${job}`)).body.post as { status: string }).status;
  try {
    expect((await api('/webhooks', { method: 'POST', body: JSON.stringify({ url: receiver.url, event_types: ['*'] }) })).status).toBe(201);
    const published = await post({ caption: 'out before the move', platforms: ['twitter', 'bluesky'], publish_now: true }, { 'Idempotency-Key': 'move-1' });
    await until(async () => (await statusOf(published)) === 'published', 'the first post to go out');
    const scheduledJob = await post({ caption: 'due after the move', platforms: ['twitter'], scheduled_for: new Date(T0 + HOUR).toISOString() });
    const heldJob = await post({ caption: 'held for approval', platforms: ['twitter'], scheduled_for: new Date(T0 + HOUR).toISOString(), require_approval: true });
    const revised = await post({ caption: 'to revise', platforms: ['bluesky'], scheduled_for: new Date(T0 + 2 * HOUR).toISOString(), require_approval: true });
    expect((await api(`/content/scheduled/request-changes?job_id=${revised}`, { method: 'POST', body: JSON.stringify({ comment: 'shorter, please' }) })).status).toBe(200);
    expect((await api(`/content/scheduled/comments?job_id=${revised}`, { method: 'POST', body: JSON.stringify({ body: 'on it' }) })).status).toBe(201);
    const cancelled = await post({ caption: 'never mind', platforms: ['twitter'], scheduled_for: new Date(T0 + 3 * HOUR).toISOString() });
    expect((await api(`/content/scheduled?job_id=${cancelled}`, { method: 'DELETE' })).status).toBe(200);
    await post({ caption: 'weekly', platforms: ['bluesky'], scheduled_for: new Date(T0 + 24 * HOUR).toISOString(), recurrence: { rrule: 'FREQ=WEEKLY', count: 3 } });
    expect((await api('/queue', { method: 'PUT', body: JSON.stringify({ timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }] }) })).status).toBe(200);
    expect((await api('/review-links', { method: 'POST', body: JSON.stringify({ job_ids: [heldJob], expires_in_hours: 24 }) })).status).toBe(201);
    const reader = openDatabase(join(dir, 'socialpub.db'));
    try {
      await until(() => receiver.hits() > 0 && Number(reader.prepare('SELECT COUNT(*) FROM webhook_attempts').pluck().get()) > 0, 'a webhook delivery attempt');
    } finally {
      reader.close();
    }
    return { dir, key, scheduledJob, heldJob };
  } finally {
    await daemon.close();
    receiver.server.close();
  }
}

describe('socialpub db migrate-to (copying a SQLite data dir into PostgreSQL)', () => {
  it('copies every table with its counts, ids and order, and a daemon on PostgreSQL publishes what was scheduled with the same key', async () => {
    const clock = new ManualClock(T0);
    const { dir, key, scheduledJob, heldJob } = await populatedDataDir(clock);
    // Two states no request makes at once: a target given up on, and one whose outcome is unknown.
    const sqlite = openDatabase(join(dir, 'socialpub.db'));
    for (const [caption, status] of [
      ['failed one', 'failed'],
      ['unknown one', 'needs_review'],
    ] as const) {
      const job = sqlite.prepare("SELECT id FROM jobs WHERE caption = 'never mind'").pluck().get() as string;
      const id = `job_${status}`;
      sqlite.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at, status) SELECT ?, user_id, ?, platforms, sort_at, created_at, updated_at, 'scheduled' FROM jobs WHERE id = ?").run(id, caption, job);
      sqlite
        .prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, error_code, updated_at) SELECT ?, ?, user_id, 'twitter', 'post', ?, ?, 'platform_error', ? FROM jobs WHERE id = ?")
        .run(`tgt_${status}`, id, T0, status, T0, id);
    }
    const before = counts(sqlite, false);
    const jobStatuses = Object.fromEntries(sqlite.prepare('SELECT id, status FROM jobs').raw().all() as [string, string][]);
    const sealed = sqlite.prepare('SELECT id, secrets_enc FROM connections ORDER BY id').all();
    const targetOrder = sqlite.prepare('SELECT id FROM targets ORDER BY rowid').pluck().all();
    const lastEvent = Number(sqlite.prepare('SELECT MAX(id) FROM events').pluck().get());
    sqlite.close();
    expect(new Set(Object.values(jobStatuses))).toEqual(new Set(['published', 'scheduled', 'pending_approval', 'changes_requested', 'cancelled', 'failed', 'needs_review']));
    for (const t of ['users', 'api_keys', 'connections', 'jobs', 'targets', 'attempts', 'series', 'queues', 'job_times', 'events', 'webhook_endpoints', 'webhook_messages', 'webhook_attempts', 'idempotency_keys', 'review_links', 'job_comments', 'sandbox_posts', 'settings']) {
      expect(before[t], t).toBeGreaterThan(0);
    }

    const url = freshPostgresUrl();
    const report = migrateToPostgres({ dataDir: dir, databaseUrl: url, use: true });

    // Every table, every row; the report says so too.
    const pg = openPostgres(url);
    const after = counts(pg, true);
    pg.close();
    expect(after).toEqual(before);
    expect(Object.fromEntries(report.daemon.tables.map((t) => [t.table, t.rows]))).toEqual(before);
    expect(report.daemon.sequences).toContainEqual({ table: 'events', column: 'id', next: lastEvent + 1 });
    // The simulators' posts (kept in socialpub.db by in-process simulators) went to the sandbox schema too.
    expect(report.sandbox?.schema).toBe(`${new URL(url).searchParams.get('schema')}_sandbox`);
    expect(report.sandbox?.tables.find((t) => t.table === 'sandbox_posts')?.rows).toBe(before.sandbox_posts);
    expect(existsSync(join(dir, 'sandbox.db'))).toBe(true);
    // --use: the data dir's config names the database now.
    expect(readConfigFile(dir).database_url).toBe(url);

    const copied = openPostgres(url);
    try {
      expect(Object.fromEntries(copied.prepare('SELECT id, status FROM jobs').raw().all() as [string, string][])).toEqual(jobStatuses);
      expect(copied.prepare('SELECT id, secrets_enc FROM connections ORDER BY id').all()).toEqual(sealed);
      expect(copied.prepare('SELECT id FROM targets ORDER BY rowid').pluck().all()).toEqual(targetOrder);
    } finally {
      copied.close();
    }

    // The daemon on PostgreSQL (the same data dir: secret.key opens the sealed tokens).
    const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, databaseUrl: url }, {}), { clock, logger: createLogger({ level: 'silent' }) });
    try {
      const api = apiOf(daemon, key);
      const who = await api('/auth/validate', { method: 'POST' });
      expect(who.status).toBe(200);
      expect(JSON.stringify(who.body)).toContain('me@example.com');
      const statusOf = async (job: string) => ((await api(`/content/scheduled?job_id=${job}`)).body.post as { status: string }).status;
      expect(await statusOf(scheduledJob)).toBe('scheduled');
      await clock.advance(HOUR);
      await until(async () => (await statusOf(scheduledJob)) === 'published', 'the scheduled post to go out on PostgreSQL');
      expect(await statusOf(heldJob)).toBe('pending_approval');
      const posts = (await api('/sandbox/posts?platform=twitter')).body.posts as { text?: string; body?: unknown }[];
      expect(JSON.stringify(posts).match(/due after the move/g)).toHaveLength(1);
      expect(JSON.stringify(posts).match(/out before the move/g)).toHaveLength(1);
      // New events follow the copied ones (the identity sequence was set past them).
      const reader = openPostgres(url);
      const types = reader.prepare('SELECT type FROM events WHERE job_id = ? AND id > ? ORDER BY id').pluck().all(scheduledJob, lastEvent);
      reader.close();
      expect(types).toEqual(expect.arrayContaining(['target.publishing', 'target.published', 'post.finished']));
    } finally {
      await daemon.close();
    }
    // Two daemons started and a publish waited for over PostgreSQL: more than the default 30 s on a loaded machine.
  }, 90_000);

  it('continues ids past SQLite’s high-water mark, so an id deleted before the move is never given again', () => {
    const dir = tempDir('sp-migrate-');
    const admin = openAdmin(dir, { clock: new ManualClock(T0) });
    admin.createKey({ email: 'me@example.com' });
    admin.close();
    const sqlite = openDatabase(join(dir, 'socialpub.db'));
    const user = sqlite.prepare('SELECT id FROM users').pluck().get() as string;
    const insert = sqlite.prepare("INSERT INTO events (user_id, type, data, created_at) VALUES (?, 'post.accepted', '{}', ?) RETURNING id");
    const ids = [1, 2, 3].map(() => Number(insert.pluck().get(user, T0)));
    sqlite.prepare('DELETE FROM events WHERE id = ?').run(ids[2]);
    sqlite.close();

    const url = freshPostgresUrl();
    const report = migrateToPostgres({ dataDir: dir, databaseUrl: url });
    expect(report.daemon.sequences).toContainEqual({ table: 'events', column: 'id', next: ids[2]! + 1 });
    expect(report.sandbox).toBeNull();
    const pg = openPostgres(url);
    const next = Number(pg.prepare("INSERT INTO events (user_id, type, data, created_at) VALUES (?, 'post.accepted', '{}', ?) RETURNING id").pluck().get(user, T0));
    pg.close();
    expect(next).toBe(ids[2]! + 1);
  });

  it('refuses a database that already holds socialpub data, and leaves it as it was', async () => {
    const clock = new ManualClock(T0);
    const dir = tempDir('sp-migrate-');
    const admin = openAdmin(dir, { clock });
    admin.createKey({ email: 'me@example.com' });
    admin.close();
    const url = freshPostgresUrl();
    const other = openPostgres(url);
    other.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run('usr_other', 'other@example.com', T0);
    other.close();

    let error: unknown;
    try {
      migrateToPostgres({ dataDir: dir, databaseUrl: url });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AdminError);
    expect((error as AdminError).code).toBe('conflict');
    expect((error as Error).message).toBe('the PostgreSQL database already holds socialpub data (rows in users): migrate into an empty database, or name an empty schema with ?schema=name');
    const pg = openPostgres(url);
    expect(pg.prepare('SELECT email FROM users').pluck().all()).toEqual(['other@example.com']);
    expect(pg.prepare('SELECT COUNT(*) FROM api_keys').pluck().get()).toBe(0);
    pg.close();
    expect(readConfigFile(dir).database_url).toBeUndefined();
  });

  it('rolls the whole copy back when a row cannot go in, so the database stays empty for another try', async () => {
    const dir = tempDir('sp-migrate-');
    const admin = openAdmin(dir, { clock: new ManualClock(T0) });
    admin.createKey({ email: 'me@example.com' });
    admin.close();
    const sqlite = openDatabase(join(dir, 'socialpub.db'));
    // A time that is not whole milliseconds: PostgreSQL's BIGINT column cannot hold it.
    sqlite.prepare('UPDATE users SET created_at = 1.5').run();
    sqlite.close();
    const url = freshPostgresUrl();
    expect(() => migrateToPostgres({ dataDir: dir, databaseUrl: url, use: true })).toThrow('users.created_at holds 1.5, which is not a whole number');
    const pg = openPostgres(url);
    expect(counts(pg, true)).toEqual(Object.fromEntries(Object.keys(counts(pg, true)).map((t) => [t, 0])));
    pg.close();
    expect(readConfigFile(dir).database_url).toBeUndefined();
  });

  it('says there is nothing to copy when the data dir has no SQLite database', () => {
    const dir = tempDir('sp-migrate-');
    expect(() => migrateToPostgres({ dataDir: dir, databaseUrl: freshPostgresUrl() })).toThrow(`no SQLite database in ${dir}`);
    expect(() => migrateToPostgres({ dataDir: dir, databaseUrl: 'mysql://localhost/x' })).toThrow('the database URL must start with postgres://');
  });
});
