// bench/api: the daemon's HTTP throughput and latency against a bare Hono handler.
//
//  1. POST /content/publish (scheduled, one platform), rate limits lifted, 2 connections:
//     requests/s, p50, p99 of the daemon with SOCIALPUB_SQLITE_SYNC=full (default) and
//     =normal and of the app over an in-memory store — and the same load on a bare Hono
//     handler as the baseline, with each one's ratio to it.
//  2. GET /content/scheduled with 100,000 jobs stored for the caller: p50/p99 of the first
//     page, of a page deep in the list (cursor), and of a status filter.
//  3. SQLite commit cost of one publish transaction under synchronous=FULL vs NORMAL, and
//     the daemon's group-committed durable write (the figures behind docs/operations.md).
// Servers run in child processes; autocannon drives them from this one.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createCommits } from '../../packages/daemon/src/store/commits';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { createStore } from '../../packages/daemon/src/store/store';
import { systemClock } from '../../packages/daemon/src/util/clock';
import { SecretBox } from '../../packages/daemon/src/util/secrets';
import { newId } from '../../packages/daemon/src/util/ids';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 2;
const LIST_JOBS = 100_000;
const here = fileURLToPath(new URL('.', import.meta.url));

async function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; port: number; key?: string }> {
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', join(here, 'server.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; key?: string }) };
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => {
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
});

async function load(url: string, opts: Record<string, unknown>): Promise<CannonResult> {
  // A short warm-up (JIT, prepared statements), then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, ...opts });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...opts });
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  return r;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function publishBench(): Promise<void> {
  const body = JSON.stringify({ caption: 'Benchmark post', platforms: ['twitter'], scheduled_for: '2030-01-01T10:00:00Z' });
  const bare = await startServer(['bare']);
  const bareResult = await load(`http://127.0.0.1:${bare.port}/api/agents/v1/content/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  await stop(bare.child);

  /** The daemon (or the app over an in-memory store) on a fresh data dir, under the same load. */
  const measure = async (mode: 'daemon' | 'memory', env: NodeJS.ProcessEnv = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-bench-api-'));
    try {
      const server = await startServer([mode, dir], env);
      try {
        return await load(`http://127.0.0.1:${server.port}/api/agents/v1/content/publish`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': server.key },
          body,
        });
      } finally {
        await stop(server.child);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const full = await measure('daemon', { SOCIALPUB_SQLITE_SYNC: 'full' });
  const normal = await measure('daemon', { SOCIALPUB_SQLITE_SYNC: 'normal' });
  const memory = await measure('memory');

  const bareRate = bareResult.requests.average;
  const line = (label: string, r: CannonResult, withRatio = true) =>
    `  ${label.padEnd(44)} ${fmt(r.requests.average, 0).padStart(6)} req/s   p50 ${fmt(r.latency.p50)} ms   p99 ${fmt(r.latency.p99)} ms` +
    (withRatio ? `   ${fmt((r.requests.average / bareRate) * 100, 1).padStart(5)}% of bare` : '');
  console.log(`scheduled publish (POST /content/publish, ${CONNECTIONS} connections, ${DURATION_S} s each, limits off; aim >= 40% of bare):`);
  console.log(line('bare Hono handler (baseline)', bareResult, false));
  console.log(line('daemon, SOCIALPUB_SQLITE_SYNC=full (default)', full));
  console.log(line('daemon, SOCIALPUB_SQLITE_SYNC=normal', normal));
  console.log(line('same app, store in memory (no disk)', memory));
}

/** 100,000 jobs (one target each, a few held for approval) for one user, written directly through the store. */
function seed(dir: string, email: string): void {
  const db = openDatabase(join(dir, 'socialpub.db'));
  const store = createStore(db, { secrets: SecretBox.fromKeyFile(join(dir, 'secret.key')), clock: systemClock });
  const user = store.users.findByEmail(email)!;
  const base = Date.UTC(2030, 0, 1);
  store.commits.durableBlocking(() => {
    for (let i = 0; i < LIST_JOBS; i++) {
      const id = newId('job');
      const at = base + (i % 5000) * 60_000;
      store.jobs.create(
        { id, userId: user.id, caption: `post ${i}`, platforms: ['twitter'], platformCaptions: {}, platformTypes: { twitter: ['tweet'] }, mediaUrls: [], publishNow: false, scheduledFor: at, typeSchedule: {}, requireApproval: i % 100 === 0, sortAt: at, createdAt: base - 1 },
        [{ id: newId('tgt'), platform: 'twitter', type: 'tweet', scheduleKey: null, dueAt: at, status: i % 100 === 0 ? 'pending_approval' : 'scheduled' }],
      );
    }
  });
  db.close();
}

async function listBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sp-bench-list-'));
  try {
    // First start creates the user and key; the jobs are then written while it is stopped.
    const first = await startServer(['daemon', dir]);
    await stop(first.child);
    const t0 = performance.now();
    seed(dir, 'bench@example.com');
    console.log(`\nGET /content/scheduled with ${LIST_JOBS.toLocaleString('en')} jobs stored (seeded in ${fmt((performance.now() - t0) / 1000, 1)} s):`);
    const daemon = await startServer(['daemon', dir], { BENCH_KEY: first.key });
    const headers = { 'x-api-key': first.key };
    const api = `http://127.0.0.1:${daemon.port}/api/agents/v1/content/scheduled`;
    // A cursor half-way down the list.
    let cursor: string | null = null;
    let page = (await (await fetch(`${api}?limit=200`, { headers })).json()) as { next_cursor: string | null };
    for (let i = 0; i < 250 && page.next_cursor; i++) {
      cursor = page.next_cursor;
      page = (await (await fetch(`${api}?limit=200&cursor=${cursor}`, { headers })).json()) as { next_cursor: string | null };
    }
    for (const [label, query] of [
      ['first page (limit 50)', ''],
      ['page after 50,000 jobs (cursor)', `?cursor=${cursor}`],
      ['status=pending_approval', '?status=pending_approval'],
      ['limit=200', '?limit=200'],
    ] as const) {
      const r = await load(`${api}${query}`, { headers });
      console.log(`  ${label.padEnd(32)} ${fmt(r.requests.average, 0)} req/s   p50 ${fmt(r.latency.p50)} ms   p99 ${fmt(r.latency.p99)} ms ${r.latency.p99 < 20 ? '(aim < 20 ms: met)' : '(aim < 20 ms: MISSED)'}`);
    }
    await stop(daemon.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Commits of one job + target + idempotency record on a file in the temp dir: serial
 * commits under FULL and NORMAL (the event loop blocked for each), and the daemon's way —
 * commits.durable(), NORMAL commit then the WAL fsynced on the thread pool — with 2 writers
 * in flight, as 2 connections make.
 */
async function syncBench(): Promise<void> {
  console.log('\nSQLite commit of one publish transaction (WAL), 2,000 commits:');
  for (const mode of ['FULL', 'NORMAL', 'durable'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'sp-bench-sync-'));
    try {
      const db = openDatabase(join(dir, 'socialpub.db'));
      if (mode !== 'durable') db.pragma(`synchronous = ${mode}`);
      const commits = createCommits(db, 'full');
      const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock: systemClock });
      const { user } = store.users.ensure('s@example.com', 0);
      const write = () => {
        const id = newId('job');
        store.jobs.create(
          { id, userId: user.id, caption: 'c', platforms: ['twitter'], platformCaptions: {}, platformTypes: {}, mediaUrls: [], publishNow: false, scheduledFor: 1, typeSchedule: {}, requireApproval: false, sortAt: 1, createdAt: 1 },
          [{ id: newId('tgt'), platform: 'twitter', type: 'tweet', scheduleKey: null, dueAt: 1, status: 'scheduled' }],
        );
        store.idempotency.save(user.id, 'content.publish', id, { bodyHash: 'h', status: 200, response: '{}', createdAt: 1 });
      };
      const n = 2000;
      const times: number[] = [];
      const started = performance.now();
      if (mode === 'durable') {
        const writer = async () => {
          for (let i = 0; i < n / 2; i++) {
            const t = performance.now();
            await commits.durable(write);
            times.push(performance.now() - t);
          }
        };
        await Promise.all([writer(), writer()]);
      } else {
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          store.commits.durableBlocking(write);
          times.push(performance.now() - t);
        }
      }
      const elapsed = performance.now() - started;
      times.sort((a, b) => a - b);
      const label = mode === 'durable' ? 'durable, 2 in flight' : `synchronous=${mode}`;
      console.log(`  ${label.padEnd(21)} ${fmt(n / (elapsed / 1000), 0).padStart(6)} commits/s   p50 ${fmt(times[n / 2]!, 3)} ms   p99 ${fmt(times[Math.floor(n * 0.99)]!, 3)} ms`);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

// Figures mean little on a busy machine: say how busy it was.
const loadAverage = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${cpus().length} CPUs, load average at start: ${loadAverage()}\n`);
await publishBench();
await listBench();
await syncBench();
console.log(`\nload average at end: ${loadAverage()}`);
