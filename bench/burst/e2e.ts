/**
 * bench/burst end to end (issue 29): a real daemon in its own process (e2e-daemon.ts) over
 * a fresh data dir, its simulators in a process of their own as `socialpub daemon run`
 * runs them (`sandbox: 'process'`, the default) or on the daemon's event loop
 * (`'in-process'`, the setup before issue 29 item 2); N users, each with an API key and sandbox connections to twitter,
 * threads and facebook; each user POSTs `postsPerUser` posts to /content/publish over
 * HTTP, all scheduled for the same whole second a few seconds ahead. The real scheduler,
 * publisher and adapters publish them to the daemon's simulators. Then, from outside: the
 * simulators' records (GET /sandbox/posts with each user's key) give per target the time
 * the simulator recorded the post; lateness = that minus the due time. Doubled: a target
 * with more than one simulator post; lost: none by the end.
 *
 * The daemon's CPU time is read from /proc/<pid>/stat (utime + stime, every thread; a
 * child's time is not in it): `cpuUsPerTarget` from half a second before the due time to
 * the last target settled (the publish), and `intakeUsPerPost` for the POSTs; the
 * simulators' process's the same way, apart (`sandboxCpuUsPerTarget`). With `profile`,
 * the daemon's main thread is profiled over that same span.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openAdmin } from '../../packages/daemon/src/admin/index';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { pct } from './percentile';

export const E2E_PLATFORMS = ['twitter', 'threads', 'facebook'] as const;
export const SANDBOX_LATENCY = '200-400';

/** Where the daemon's simulators run: their own process (as shipped) or its event loop. */
export type SandboxMode = 'process' | 'in-process';

export interface E2eResult {
  variant: 'e2e' | 'e2e-in-process' | 'e2e-baseline';
  sandbox: SandboxMode;
  targets: number;
  published: number;
  doubled: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  /** The daemon's own CPU per target (µs); with in-process simulators it includes theirs. */
  cpuUsPerTarget: number;
  /** The simulators' process's CPU per target over the same span (µs); null in-process. */
  sandboxCpuUsPerTarget: number | null;
  /** Times the simulators' process was restarted during the run (0 in-process). */
  sandboxRestarts: number;
  /** Lateness of each platform's targets (ms). */
  byPlatform: Record<string, { p50: number; p99: number }>;
  /** Daemon CPU per accepted POST /content/publish (µs). */
  intakeUsPerPost: number;
  /** POSTs per second the daemon accepted (16 clients). */
  intakePerSecond: number;
  /** Whether every POST was answered before the due time (else lateness includes intake). */
  intakeBeforeDue: boolean;
  /** The daemon's peak RSS (VmHWM, MB). */
  rssMb: number;
  /** Wall time from due to the last target settled (ms). */
  settleMs: number;
  /** Targets by final status, and attempts by outcome and error code (`retry:timeout`). */
  statuses: Record<string, number>;
  attempts: Record<string, number>;
}

const daemonScript = fileURLToPath(new URL('./e2e-daemon.ts', import.meta.url));
const CLIENTS = 16;
const SETTLE_TIMEOUT_MS = 180_000;
const TERMINAL = "('published', 'failed', 'cancelled', 'needs_review', 'removed')";

/** utime + stime of a process, every thread, in µs (Linux /proc). */
export function procCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

/** Peak resident set of a process (VmHWM) in MB. */
export function procPeakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** Whether this daemon reads SOCIALPUB_SANDBOX_LATENCY_MS (the setting of issue 29, item 1). */
export function sandboxLatencySupported(): boolean {
  const src = fileURLToPath(new URL('../../packages/daemon/src/', import.meta.url));
  const scan = (d: string): boolean =>
    readdirSync(d, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? scan(join(d, e.name)) : e.name.endsWith('.ts') && readFileSync(join(d, e.name), 'utf8').includes('SOCIALPUB_SANDBOX_LATENCY_MS'),
    );
  return scan(src);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `n` jobs with `width` in flight. */
async function pool(n: number, width: number, job: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

/** A running end-to-end daemon: its URL, pid, and the commands of e2e-daemon.ts. */
export interface BenchDaemon {
  url: string;
  pid: number;
  /** Where the simulators run, and the pid of their process at start (null in-process). */
  sandbox: { mode: SandboxMode; pid: number | null };
  dataDir: string;
  dbPath: string;
  command(line: string, answerKey: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** `root`: another checkout (a worktree of main) whose daemon to run instead of this one's, for a baseline in the same run. */
export async function startBenchDaemon(dataDir: string, opts: { env?: NodeJS.ProcessEnv; sandbox?: SandboxMode; root?: string } = {}): Promise<BenchDaemon> {
  const script = opts.root ? join(opts.root, 'bench/burst/e2e-daemon.ts') : daemonScript;
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', script, dataDir, opts.sandbox ?? 'process'], {
    ...(opts.root ? { cwd: opts.root } : {}),
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, SOCIALPUB_SANDBOX_LATENCY_MS: SANDBOX_LATENCY, ...opts.env },
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: { key: string; resolve: (msg: Record<string, unknown>) => void }[] = [];
  type Ready = { url: string; pid: number; sandbox: { mode: SandboxMode; pid: number | null } };
  let onReady: (v: Ready) => void = () => {};
  let started = false;
  const ready = new Promise<Ready>((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`bench daemon exited with ${code}`)));
  });
  lines.on('line', (line) => {
    const msg = JSON.parse(line) as Record<string, unknown>;
    if (!started && typeof msg.url === 'string') {
      started = true;
      return onReady(msg as Ready);
    }
    const i = waiting.findIndex((w) => w.key in msg);
    if (i >= 0) waiting.splice(i, 1)[0]?.resolve(msg);
  });
  const { url, pid, sandbox } = await ready;
  return {
    url,
    pid,
    sandbox: { mode: sandbox.mode, pid: sandbox.pid },
    dataDir,
    dbPath: join(dataDir, 'socialpub.db'),
    command: (line, key) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiting.push({ key, resolve });
        child.stdin.write(`${line}\n`);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface BenchUser {
  email: string;
  key: string;
}

/** Users with a key and sandbox connections to the three platforms, made before the daemon starts (as `socialpub keys create` / `connect --sandbox`). */
export function createUsers(dataDir: string, count: number, from = 0): BenchUser[] {
  const admin = openAdmin(dataDir);
  try {
    const users: BenchUser[] = [];
    for (let u = from; u < from + count; u++) {
      const email = `user${u}@bench.test`;
      const key = admin.createKey({ email }).api_key;
      for (const p of E2E_PLATFORMS) admin.addSandboxConnection(p, { email });
      users.push({ email, key });
    }
    return users;
  } finally {
    admin.close();
  }
}

const tag = (run: string, u: number, n: number) => `[${run}-u${u}-p${n}]`;

/** POSTs every user's posts, all scheduled for `dueMs`; answers POSTs per second. */
export async function postBurst(url: string, users: BenchUser[], postsPerUser: number, dueMs: number, run: string): Promise<number> {
  const t0 = performance.now();
  const total = users.length * postsPerUser;
  await pool(total, CLIENTS, async (i) => {
    const u = Math.floor(i / postsPerUser);
    const n = i % postsPerUser;
    const user = users[u] as BenchUser;
    const res = await fetch(`${url}/api/agents/v1/content/publish`, {
      method: 'POST',
      headers: { 'X-API-Key': user.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ caption: `burst post ${tag(run, u, n)}`, platforms: E2E_PLATFORMS, scheduled_for: new Date(dueMs).toISOString() }),
    });
    if (res.status !== 200 && res.status !== 201 && res.status !== 202) throw new Error(`POST /content/publish: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });
  return total / ((performance.now() - t0) / 1000);
}

/** Waits until no target of the data dir is unsettled (or the timeout); answers when the last settled (ms since epoch). */
export async function waitSettled(dbPath: string, total: number, timeoutMs = SETTLE_TIMEOUT_MS): Promise<number> {
  const db = openDatabase(dbPath);
  try {
    const deadline = Date.now() + timeoutMs;
    const settled = db.prepare(`SELECT count(*) FROM targets WHERE status IN ${TERMINAL}`).pluck();
    while (Date.now() < deadline) {
      if ((settled.get() as number) >= total) break;
      await sleep(100);
    }
    return Date.now();
  } finally {
    db.close();
  }
}

/** What the daemon recorded: targets by status, attempts by outcome and error code. */
export function targetReport(dbPath: string): { statuses: Record<string, number>; attempts: Record<string, number> } {
  const db = openDatabase(dbPath);
  try {
    const statuses = Object.fromEntries(
      (db.prepare('SELECT status, count(*) AS n FROM targets GROUP BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]),
    );
    const attempts = Object.fromEntries(
      (
        db.prepare("SELECT coalesce(outcome, 'open') || coalesce(':' || error_code, '') || coalesce(' (' || substr(error_message, 1, 60) || ')', '') AS k, count(*) AS n FROM attempts GROUP BY k ORDER BY n DESC").all() as {
          k: string;
          n: number;
        }[]
      ).map((r) => [r.k, r.n]),
    );
    return { statuses, attempts };
  } finally {
    db.close();
  }
}

/** Per target (user, post, platform): the simulator's record times, read over HTTP with each user's key. */
export async function simulatorRecords(url: string, users: BenchUser[], run: string): Promise<Map<string, number[]>> {
  const seen = new Map<string, number[]>();
  const re = new RegExp(`\\[${run}-u(\\d+)-p(\\d+)\\]`);
  await pool(users.length, CLIENTS, async (u) => {
    const user = users[u] as BenchUser;
    const res = await fetch(`${url}/api/agents/v1/sandbox/posts?limit=1000`, { headers: { 'X-API-Key': user.key } });
    if (res.status !== 200) throw new Error(`GET /sandbox/posts: ${res.status} ${await res.text()}`);
    const { posts } = (await res.json()) as { posts: { platform: string; created_at: string; body: unknown }[] };
    for (const p of posts) {
      const m = re.exec(JSON.stringify(p.body));
      if (!m) continue;
      const k = `${m[1]}/${m[2]}/${p.platform}`;
      const list = seen.get(k) ?? [];
      list.push(Date.parse(p.created_at));
      seen.set(k, list);
    }
  });
  return seen;
}

/** Lateness figures of the records against the expected targets. */
export function lateness(records: Map<string, number[]>, userIndexes: number[], postsPerUser: number, dueMs: number) {
  const late: number[] = [];
  let doubled = 0;
  let lost = 0;
  for (const u of userIndexes) {
    for (let n = 0; n < postsPerUser; n++) {
      for (const p of E2E_PLATFORMS) {
        const times = records.get(`${u}/${n}/${p}`) ?? [];
        if (times.length === 0) lost++;
        if (times.length > 1) doubled++;
        if (times.length > 0) late.push(Math.min(...times) - dueMs);
      }
    }
  }
  late.sort((a, b) => a - b);
  return { published: late.length, doubled, lost, p50: pct(late, 0.5), p99: pct(late, 0.99), max: late[late.length - 1] ?? Number.NaN, byPlatform: latenessByPlatform(records, userIndexes, postsPerUser, dueMs) };
}

/** p50 / p99 of each platform's targets apart (ms): where the tail of the whole is. */
function latenessByPlatform(records: Map<string, number[]>, userIndexes: number[], postsPerUser: number, dueMs: number): Record<string, { p50: number; p99: number }> {
  const out: Record<string, { p50: number; p99: number }> = {};
  for (const p of E2E_PLATFORMS) {
    const late: number[] = [];
    for (const u of userIndexes) {
      for (let n = 0; n < postsPerUser; n++) {
        const times = records.get(`${u}/${n}/${p}`);
        if (times?.length) late.push(Math.min(...times) - dueMs);
      }
    }
    late.sort((a, b) => a - b);
    out[p] = { p50: pct(late, 0.5), p99: pct(late, 0.99) };
  }
  return out;
}

/**
 * One end-to-end burst of `targets` targets (users x 3 platforms x postsPerUser). `baseline`:
 * the daemon of another checkout (`--e2e-baseline=<dir>`, e.g. a worktree of main, set up
 * with ./scripts/setup) over the same kind of data dir, made by this checkout's admin (the
 * schema must be the same).
 */
export async function runE2e(targets: number, postsPerUser: number, opts: { profilePath?: string; sandbox?: SandboxMode; baseline?: string } = {}): Promise<E2eResult> {
  const mode = opts.sandbox ?? 'process';
  const users = targets / (postsPerUser * E2E_PLATFORMS.length);
  const dataDir = mkdtempSync(join(tmpdir(), 'socialpub-bench-e2e-'));
  const run = `b${Date.now().toString(36)}`;
  let daemon: BenchDaemon | undefined;
  try {
    const list = createUsers(dataDir, users);
    daemon = await startBenchDaemon(dataDir, { sandbox: mode, ...(opts.baseline ? { root: opts.baseline } : {}) });
    // In-process the handle's pid is the daemon's own: no process apart to measure.
    const sandboxPid = mode === 'process' ? daemon.sandbox.pid : null;
    // The simulators' process's CPU (0 in-process, where it is in the daemon's).
    const sandboxCpu = () => (sandboxPid === null ? 0 : procCpuUs(sandboxPid));
    // Due at a whole second far enough ahead for the POSTs (about 15 ms each here, loaded), at least 3 s.
    const lead = 3_000 + users * postsPerUser * 15;
    const due = Math.ceil((Date.now() + lead) / 1000) * 1000;
    const cpu0 = procCpuUs(daemon.pid);
    const intakePerSecond = await postBurst(daemon.url, list, postsPerUser, due, run);
    const intakeBeforeDue = Date.now() < due;
    const cpu1 = procCpuUs(daemon.pid);
    // The publish's CPU (and profile) from half a second before the due time.
    await sleep(due - 500 - Date.now());
    if (opts.profilePath) await daemon.command('profile-start', 'profiling');
    const cpu2 = procCpuUs(daemon.pid);
    const sandboxCpu2 = sandboxCpu();
    const settledAt = await waitSettled(daemon.dbPath, targets);
    const cpu3 = procCpuUs(daemon.pid);
    const { sandbox: state } = (await daemon.command('sandbox', 'sandbox')) as { sandbox: { pid: number | null; restarts: number } };
    // Restarted meanwhile: the first process's time is gone with it, so no figure.
    const sandboxCpuUsPerTarget = sandboxPid === null || state.restarts > 0 ? null : Math.round((sandboxCpu() - sandboxCpu2) / targets);
    if (opts.profilePath) await daemon.command(`profile-stop ${opts.profilePath}`, 'profile');
    const rssMb = procPeakRssMb(daemon.pid);
    const report = targetReport(daemon.dbPath);
    const records = await simulatorRecords(daemon.url, list, run);
    const figures = lateness(records, Array.from({ length: users }, (_, i) => i), postsPerUser, due);
    return {
      variant: opts.baseline ? 'e2e-baseline' : mode === 'process' ? 'e2e' : 'e2e-in-process',
      sandbox: mode,
      targets,
      ...figures,
      cpuUsPerTarget: Math.round((cpu3 - cpu2) / targets),
      sandboxCpuUsPerTarget,
      sandboxRestarts: state.restarts,
      intakeUsPerPost: Math.round((cpu1 - cpu0) / (users * postsPerUser)),
      intakePerSecond: Math.round(intakePerSecond),
      intakeBeforeDue,
      rssMb,
      settleMs: settledAt - due,
      ...report,
    };
  } finally {
    await daemon?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
