/**
 * Capacity benchmark (issue 29): how far one daemon goes on this machine. One data dir
 * grows step by step — users (each with sandbox connections to twitter, threads and
 * facebook), pending posts (scheduled days ahead, stored but not yet due) and the publish
 * rate (targets falling due per second) — until a limit breaks: lateness p99 over 1 s,
 * peak RSS over RSS_BOUND_MB, or the disk (free space under DISK_FLOOR_GB).
 *
 * Each step: the daemon stopped, the step's users made as `connect --sandbox` does and its
 * rows added to the SQLite file (pending posts and the step's due posts, as variant.ts of
 * bench/burst does: intake over HTTP is measured by bench/burst's end-to-end mode, about
 * 100 POST/s here, and would take the whole time budget), then the real daemon started in
 * its own process (bench/burst/e2e-daemon.ts: real adapters, the sandbox simulators in a
 * process of their own, as `socialpub daemon run` starts them). For
 * WINDOW_S seconds posts fall due at the step's rate, evenly spread; lateness is the
 * simulator's record time (sandbox_posts.created_at, in the simulators' sandbox.db) minus the due time, per target. Also:
 * time to ready, the daemon's CPU per target (/proc), peak RSS (VmHWM), database size.
 * The baseline is the first step; each step prints its ratio to it.
 *
 * `--database=postgres` (issue 34, item 7) runs, after that SQLite series, the same steps
 * on a throwaway PostgreSQL cluster (fsync on, as SQLite's FULL) with 1, 2 and 3 daemons
 * (`--daemons=1,2` for others) over one database and one shared data dir, each daemon a
 * process with its simulators in one of their own (their records in the database's
 * sandbox schema); CPU per target is the daemons' processes summed. It ends with each
 * setup's ceiling (the last step within every limit), its CPU per target at step 1, and
 * their ratios to SQLite's and to one PostgreSQL daemon's.
 *
 * `--steps=N` stops after step N (a short look on a shared machine). On PostgreSQL each
 * series also prints the deadlocks the server counted (pg_stat_database) and, with
 * `--lock-waits`, the lock waits over 10 ms per relation (log_lock_waits, deadlock_timeout
 * 10 ms: the server's log), e.g. claims of one job's targets waiting on its `jobs` row.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, statfsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAdmin } from '../../packages/daemon/src/admin/index';
import { openDatabase, type DB } from '../../packages/daemon/src/store/database';
import { PostgresDatabase } from '../../packages/daemon/src/store/postgres/pg-database';
import { startPostgresCluster } from '../../scripts/postgres-cluster';
import { openReadOnly, sandboxDbPath } from '../../packages/daemon/src/store/sandbox-database';
import { serverCpuUs } from '../burst/cluster';
import { E2E_PLATFORMS, procCpuUs, procPeakRssMb, startBenchDaemon, type BenchDaemon } from '../burst/e2e';
import { pct } from '../burst/percentile';

interface Step {
  users: number;
  pendingTargets: number;
  /** Targets falling due per second during the window. */
  rate: number;
}

const STEPS: Step[] = [
  { users: 50, pendingTargets: 15_000, rate: 15 },
  { users: 100, pendingTargets: 60_000, rate: 30 },
  { users: 150, pendingTargets: 120_000, rate: 45 },
  { users: 200, pendingTargets: 200_000, rate: 60 },
  { users: 300, pendingTargets: 300_000, rate: 90 },
  { users: 400, pendingTargets: 450_000, rate: 120 },
  { users: 600, pendingTargets: 700_000, rate: 180 },
  { users: 800, pendingTargets: 1_000_000, rate: 240 },
  { users: 1_000, pendingTargets: 1_300_000, rate: 360 },
  { users: 1_200, pendingTargets: 1_600_000, rate: 480 },
  { users: 1_600, pendingTargets: 2_000_000, rate: 720 },
];
const WINDOW_S = Number(process.env.BENCH_CAPACITY_WINDOW_S ?? 10);
const LEAD_MS = 2_000;
const P99_BOUND_MS = 1_000;
const RSS_BOUND_MB = Number(process.env.BENCH_CAPACITY_RSS_MB ?? 1_024);
const DISK_FLOOR_GB = 2;
const SETTLE_MS = 60_000;
const TERMINAL = "('published', 'failed', 'cancelled', 'needs_review', 'removed')";

interface Figures {
  step: number;
  users: number;
  connections: number;
  storedTargets: number;
  rate: number;
  due: number;
  readyMs: number;
  p50: number;
  p99: number;
  max: number;
  doubled: number;
  lost: number;
  cpuUsPerTarget: number;
  rssMb: number;
  dbMb: number;
  load: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const argv = process.argv.slice(2);
const onPostgres = argv.some((a) => a === '--database=postgres') || argv[argv.indexOf('--database') + 1] === 'postgres';
const maxSteps = Number(argv.find((a) => a.startsWith('--steps='))?.slice('--steps='.length) ?? STEPS.length);
const lockWaits = argv.includes('--lock-waits');
const daemonCounts = (argv.find((a) => a.startsWith('--daemons='))?.slice('--daemons='.length) ?? '1,2,3').split(',').map(Number);

/** Where one series runs: SQLite in the data dir, or a PostgreSQL schema with `daemons` daemons over it. */
interface Setup {
  label: string;
  /** The PostgreSQL URL (with ?schema=); null for SQLite. */
  url: string | null;
  daemons: number;
}

interface Series {
  setup: Setup;
  results: Figures[];
  broke: string;
}

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a');

/** The steps of one setup in a data dir of its own, until a limit breaks; prints as it goes. */
async function runSeries(setup: Setup): Promise<Series> {
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-bench-capacity-'));
  const dbPath = setup.url ?? join(dir, 'socialpub.db');
  const env = setup.url ? { SOCIALPUB_DATABASE_URL: setup.url } : {};

  /** Adds users `from..to` with their sandbox connections; answers their ids in order. */
  function addUsers(from: number, to: number): string[] {
    const admin = openAdmin(dir, setup.url ? { databaseUrl: setup.url } : {});
    try {
      const ids: string[] = [];
      for (let u = from; u < to; u++) {
        let id = '';
        for (const p of E2E_PLATFORMS) id = admin.addSandboxConnection(p, { email: `cap${u}@bench.test` }).user_id;
        ids.push(id);
      }
      return ids;
    } finally {
      admin.close();
    }
  }

  /** Adds jobs of the three platforms: `dueAt(j)` each, users round robin; answers target ids by tag. */
  function addJobs(userIds: string[], count: number, dueAt: (j: number) => number, tag: (j: number) => string, status = 'scheduled') {
    const db = openDatabase(dbPath);
    const now = Date.now();
    try {
      if (setup.url) return addJobsInBulk(db, userIds, count, dueAt, tag, status, now);
      const job = db.prepare(
        "INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?)",
      );
      const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, ?, ?)");
      const platforms = JSON.stringify(E2E_PLATFORMS);
      db.transaction(() => {
        for (let j = 0; j < count; j++) {
          const user = userIds[j % userIds.length] as string;
          const t = tag(j);
          const due = dueAt(j);
          job.run(`job_${t}`, user, `capacity post [${t}]`, platforms, due, due, now, now);
          for (const p of E2E_PLATFORMS) target.run(`tgt_${t}_${p}`, `job_${t}`, user, p, due, status, now);
        }
      })();
    } finally {
      db.close();
    }
  }

  const results: Figures[] = [];
  let broke = '';
  let userIds: string[] = [];
  let stored = 0;
  if (setup.url) console.log(`\n${setup.label}`);
  console.log(
    `${'step'.padEnd(5)}${'users'.padStart(7)}${'conns'.padStart(7)}${'stored'.padStart(10)}${'rate/s'.padStart(8)}${'ready'.padStart(9)}${'p50'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}${'doubled'.padStart(9)}${'lost'.padStart(6)}${'CPU/target'.padStart(12)}${'RSS'.padStart(9)}${'db'.padStart(9)}${'load'.padStart(6)}`,
  );
  // PostgreSQL: the daemons are started and stopped once before step 1, so the first
  // window opens after twice a measured start-up (SQLite's first guess, 4 s, is short for
  // N daemons each opening its connections and simulators) and not during a first start.
  let lastReadyMs = 4_000;
  try {
    if (setup.url) {
      const t0 = performance.now();
      const warm: BenchDaemon[] = [];
      for (let d = 0; d < setup.daemons; d++) warm.push(await startBenchDaemon(dir, { env: { SOCIALPUB_SANDBOX_LATENCY_MS: '', ...env } }));
      lastReadyMs = Math.round(performance.now() - t0);
      for (const d of warm) await d.stop();
    }
    for (const [i, step] of STEPS.slice(0, maxSteps).entries()) {
      userIds = userIds.concat(addUsers(userIds.length, step.users));
      // Pending posts: due 1-30 days ahead, never in the window.
      const pendingJobs = Math.ceil((step.pendingTargets - stored) / 3);
      if (pendingJobs > 0) {
        const base = Date.now() + 86_400_000;
        addJobs(userIds, pendingJobs, (j) => base + ((j * 7_919) % (29 * 86_400_000)), (j) => `p${i}-${j}`);
        stored += pendingJobs * 3;
      }
      const dueJobs = Math.round((step.rate * WINDOW_S) / 3);
      // The window's posts are stored before the daemon starts (rows written behind a running
      // daemon's back are seen only at its loader's next pass); the window opens well after
      // the daemon is ready: twice the last start-up plus LEAD_MS.
      const start = Date.now() + LEAD_MS + 2 * (results[results.length - 1]?.readyMs ?? lastReadyMs);
      const dueAt = (j: number) => start + Math.floor((j * 1000 * WINDOW_S) / dueJobs);
      addJobs(userIds, dueJobs, dueAt, (j) => `d${i}-${j}`);
      stored += dueJobs * 3;
      const t0 = performance.now();
      // The daemon's own ceiling: simulators in their own process answering at once (no sandbox
      // latency), so lateness measures the daemon, not 200-400 ms of simulated platform.
      // Several daemons start one after the other (the first migrates).
      const daemons: BenchDaemon[] = [];
      for (let d = 0; d < setup.daemons; d++) daemons.push(await startBenchDaemon(dir, { env: { SOCIALPUB_SANDBOX_LATENCY_MS: '', ...env } }));
      const readyMs = Math.round(performance.now() - t0);
      if (Date.now() > start - 500) console.log(`step ${i + 1}: the daemon was ready only ${Date.now() - start} ms after the window opened`);
      await sleep(start - 500 - Date.now());
      const cpuOf = () => daemons.reduce((sum, d) => sum + procCpuUs(d.pid), 0);
      const cpu0 = cpuOf();
      const db = openDatabase(dbPath);
      const pending = db.prepare(`SELECT count(*) FROM targets WHERE id LIKE ? AND status NOT IN ${TERMINAL}`).pluck();
      const deadline = start + WINDOW_S * 1000 + SETTLE_MS;
      while (Date.now() < deadline && (pending.get(`tgt_d${i}-%`) as number) > 0) await sleep(200);
      const cpu1 = cpuOf();
      const rssMb = Math.max(...daemons.map((d) => procPeakRssMb(d.pid)));
      const dbBytes = setup.url ? postgresBytes(db) : 0;
      // Why a step was late, when its attempts did not all publish the first time (a platform's 5xx or 429, a lost lease).
      const retried = db
        .prepare<[string], { code: string | null; n: number }>(
          "SELECT COALESCE(error_code, outcome) AS code, count(*) AS n FROM attempts WHERE target_id LIKE ? AND outcome IS NOT NULL AND outcome <> 'published' GROUP BY COALESCE(error_code, outcome) ORDER BY n DESC",
        )
        .all(`tgt_d${i}-%`);
      if (retried.length > 0) console.log(`step ${i + 1}: attempts that did not publish: ${retried.map((r) => `${r.n} ${r.code}`).join(', ')}`);
      const heldBack = db.prepare<[string], number>('SELECT count(*) FROM targets WHERE id LIKE ? AND next_attempt_at IS NOT NULL').pluck().get(`tgt_d${i}-%`) ?? 0;
      const pauses = db.prepare<[], { reason: string }>('SELECT reason FROM platform_pauses').all();
      if (heldBack > 0 || pauses.length > 0) console.log(`step ${i + 1}: ${heldBack} targets held back (a pause or a retry's backoff); platform pauses: ${pauses.map((p) => p.reason).join('; ') || 'none'}`);
      db.close();
      // The simulators' records are in their own file (sandbox.db), which their process keeps
      // (on PostgreSQL, the database's sandbox schema, shared by every daemon's simulators).
      const sandboxDb = openReadOnly(sandboxDbPath(dir, setup.url ?? undefined));
      if (!sandboxDb) throw new Error(`step ${i + 1}: the simulators wrote no ${sandboxDbPath(dir)}`);
      const posts = sandboxDb.prepare("SELECT body, platform, created_at FROM sandbox_posts WHERE body LIKE ?").all(`%[d${i}-%`) as {
        body: string;
        platform: string;
        created_at: number;
      }[];
      sandboxDb.close();
      for (const d of daemons) await d.stop();
      const seen = new Map<string, number[]>();
      const re = new RegExp(`\\[d${i}-(\\d+)\\]`);
      for (const p of posts) {
        const m = re.exec(p.body);
        if (!m) continue;
        const k = `${m[1]}/${p.platform}`;
        seen.set(k, [...(seen.get(k) ?? []), p.created_at]);
      }
      const late: number[] = [];
      let doubled = 0;
      let lost = 0;
      for (let j = 0; j < dueJobs; j++) {
        for (const p of E2E_PLATFORMS) {
          const times = seen.get(`${j}/${p}`) ?? [];
          if (times.length === 0) lost++;
          if (times.length > 1) doubled++;
          if (times.length) late.push(Math.min(...times) - dueAt(j));
        }
      }
      late.sort((a, b) => a - b);
      const dbMb = Math.round((setup.url ? dbBytes : statSync(dbPath).size + (statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0)) / 1_048_576);
      const f: Figures = {
        step: i + 1,
        users: step.users,
        connections: step.users * 3,
        storedTargets: stored,
        rate: step.rate,
        due: dueJobs * 3,
        readyMs,
        p50: pct(late, 0.5),
        p99: pct(late, 0.99),
        max: late[late.length - 1] ?? Number.NaN,
        doubled,
        lost,
        cpuUsPerTarget: Math.round((cpu1 - cpu0) / (dueJobs * 3)),
        rssMb,
        dbMb,
        load: loadavg()[0] ?? 0,
      };
      results.push(f);
      console.log(
        `${String(f.step).padEnd(5)}${String(f.users).padStart(7)}${String(f.connections).padStart(7)}${f.storedTargets.toLocaleString().padStart(10)}${String(f.rate).padStart(8)}${`${f.readyMs} ms`.padStart(9)}${s(f.p50).padStart(9)}${s(f.p99).padStart(9)}${s(f.max).padStart(9)}${String(f.doubled).padStart(9)}${String(f.lost).padStart(6)}${`${f.cpuUsPerTarget} µs`.padStart(12)}${`${f.rssMb} MB`.padStart(9)}${`${f.dbMb} MB`.padStart(9)}${f.load.toFixed(1).padStart(6)}`,
      );
      const free = statfsSync(dir);
      const freeGb = (free.bavail * free.bsize) / 1e9;
      if (f.p99 > P99_BOUND_MS || f.lost > 0) broke = `lateness: p99 ${s(f.p99)} > ${P99_BOUND_MS / 1000} s${f.lost ? `, ${f.lost} lost` : ''} at ${f.rate} targets/s`;
      else if (f.rssMb > RSS_BOUND_MB) broke = `RSS: ${f.rssMb} MB > ${RSS_BOUND_MB} MB`;
      else if (freeGb < DISK_FLOOR_GB) broke = `disk: ${freeGb.toFixed(1)} GB free`;
      if (broke) break;
    }
    const [base] = results as [Figures];
    console.log(`\nbaseline: step 1 (${base.rate} targets/s, ${base.storedTargets.toLocaleString()} stored)`);
    for (const f of results.slice(1)) {
      console.log(
        `step ${f.step} / step 1: rate ${(f.rate / base.rate).toFixed(0)}x, stored ${(f.storedTargets / base.storedTargets).toFixed(0)}x -> p99 ${(f.p99 / base.p99).toFixed(2)}x, CPU/target ${(f.cpuUsPerTarget / base.cpuUsPerTarget).toFixed(2)}x, RSS ${(f.rssMb / base.rssMb).toFixed(2)}x, ready ${(f.readyMs / base.readyMs).toFixed(2)}x`,
      );
    }
    const last = results[results.length - 1] as Figures;
    console.log(
      broke
        ? `\nlimit reached at step ${last.step}: ${broke}; the last step within every limit: ${results.length > 1 ? `step ${last.step - 1} (${results[results.length - 2]?.rate} targets/s)` : 'none'}`
        : `\nno limit reached up to step ${last.step} (${last.rate} targets/s, ${last.storedTargets.toLocaleString()} stored)`,
    );
    console.log(`disk: ${((last.dbMb * 1_048_576) / last.storedTargets).toFixed(0)} bytes of database per stored target (jobs, targets, attempts; the simulators keep their posts in ${setup.url ? 'their schema' : 'sandbox.db'})`);
    return { setup, results, broke };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The jobs and targets of a PostgreSQL series, a thousand jobs a statement (one round trip each, not one a row). */
function addJobsInBulk(db: DB, userIds: string[], count: number, dueAt: (j: number) => number, tag: (j: number) => string, status: string, now: number): void {
  const jobs = db.prepare(
    `INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at)
     SELECT 'job_' || (value->>'t'), value->>'u', 'capacity post [' || (value->>'t') || ']', ?, '[]', CAST(value->>'d' AS BIGINT), CAST(value->>'d' AS BIGINT), ?, ? FROM json_each(?)`,
  );
  const targets = db.prepare(
    `INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at)
     SELECT 'tgt_' || (value->>'t') || '_' || (value->>'p'), 'job_' || (value->>'t'), value->>'u', value->>'p', 'feed', CAST(value->>'d' AS BIGINT), ?, ? FROM json_each(?)`,
  );
  const platforms = JSON.stringify(E2E_PLATFORMS);
  db.transaction(() => {
    for (let from = 0; from < count; from += 1_000) {
      const rows: { t: string; u: string; d: number }[] = [];
      for (let j = from; j < Math.min(count, from + 1_000); j++) rows.push({ t: tag(j), u: userIds[j % userIds.length] as string, d: dueAt(j) });
      jobs.run(platforms, now, now, JSON.stringify(rows));
      targets.run(status, now, JSON.stringify(rows.flatMap((r) => E2E_PLATFORMS.map((p) => ({ ...r, p })))));
    }
  })();
}

/** Lock waits logged by log_lock_waits, per relation (or advisory lock): "12 on jobs (20-31 ms)". */
function describeWaits(log: string): string {
  const lines = log.split('\n');
  const per = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const m = /still waiting for (\w+) on (.+?) after ([\d.]+) ms/.exec(line);
    if (!m) return;
    // The CONTEXT line a few lines below names the relation of a row lock.
    const context = lines.slice(i + 1, i + 5).find((l) => l.includes('CONTEXT:'));
    const relation = /relation "(\w+)"/.exec(context ?? '')?.[1] ?? (m[2]?.startsWith('advisory') ? 'advisory locks' : (m[2] ?? '?'));
    per.set(relation, [...(per.get(relation) ?? []), Number(m[3])]);
  });
  // What each deadlock was between: the statements PostgreSQL names in its DETAIL lines.
  const deadlocks = lines.flatMap((line, i) =>
    line.includes('deadlock detected')
      ? [lines.slice(i + 1, i + 12).filter((l) => /Process \d+:|CONTEXT:/.test(l)).map((l) => l.trim().slice(0, 200)).join(' | ')]
      : [],
  );
  const waits = per.size === 0 ? 'none' : [...per].map(([r, ms]) => `${ms.length} on ${r} (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)} ms)`).join(', ');
  return deadlocks.length === 0 ? waits : `${waits}\n${deadlocks.map((d) => `  deadlock: ${d}`).join('\n')}`;
}

/** The size of socialpub's tables (and their indexes) in the series' schema. */
function postgresBytes(db: DB): number {
  return Number(
    db
      .prepare(
        "SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'",
      )
      .pluck()
      .get(),
  );
}

console.log(
  `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores; each step: ${WINDOW_S} s of posts falling due at the step's rate (3 targets a post: twitter, threads, facebook); limits: p99 > ${P99_BOUND_MS / 1000} s, RSS > ${RSS_BOUND_MB} MB, disk free < ${DISK_FLOOR_GB} GB`,
);
// `--postgres-only`: the PostgreSQL series alone (looking into one; the ratios need SQLite's).
const sqlite = argv.includes('--postgres-only') && onPostgres ? null : await runSeries({ label: 'SQLite, 1 daemon', url: null, daemons: 1 });
if (onPostgres) {
  const cluster = await startPostgresCluster({ durable: true });
  const series: (Series & { serverUsPerTarget: number })[] = [];
  try {
    // Not migrated: only the server's settings and statistics are read through it.
    const admin = new PostgresDatabase(cluster.url) as unknown as DB;
    if (lockWaits) {
      admin.exec('ALTER SYSTEM SET log_lock_waits = on');
      admin.exec("ALTER SYSTEM SET deadlock_timeout = '10ms'");
      admin.prepare('SELECT pg_reload_conf()').get();
    }
    const deadlocks = () => Number(admin.prepare('SELECT COALESCE(sum(deadlocks), 0) AS n FROM pg_stat_database').pluck().get());
    const logPath = join(cluster.dataDir, '..', 'log');
    for (const n of daemonCounts) {
      const server0 = serverCpuUs(cluster);
      const deadlocks0 = deadlocks();
      const log0 = statSync(logPath).size;
      const run = await runSeries({ label: `PostgreSQL, ${n} daemon${n > 1 ? 's' : ''}`, url: `${cluster.url}?schema=capacity_${n}`, daemons: n });
      const due = run.results.reduce((sum, f) => sum + f.due, 0);
      series.push({ ...run, serverUsPerTarget: Math.round((serverCpuUs(cluster) - server0) / due) });
      // pg_stat_database's counters are sent by the backends at their end (the daemons have stopped).
      await sleep(1_000);
      console.log(`deadlocks: ${deadlocks() - deadlocks0}${lockWaits ? `; lock waits over 10 ms: ${describeWaits(readFileSync(logPath, 'utf8').slice(log0))}` : ''}`);
    }
    admin.close();
  } finally {
    cluster.stop();
  }
  const ceiling = (x: Series) => {
    const within = x.broke ? x.results.slice(0, -1) : x.results;
    return within[within.length - 1]?.rate ?? 0;
  };
  const one = series.find((x) => x.setup.daemons === 1);
  const cpu1 = (x: Series) => (x.results[0] as Figures).cpuUsPerTarget;
  console.log('\n| setup | ceiling (targets/s, every limit held) | limit | daemons CPU/target at step 1 | vs SQLite | vs 1 PostgreSQL daemon | server CPU/target (all steps) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const x of [...(sqlite ? [{ ...sqlite, serverUsPerTarget: Number.NaN }] : []), ...series]) {
    console.log(
      `| ${x.setup.label} | ${ceiling(x) || 'none'} | ${x.broke || 'none reached'} | ${cpu1(x)} µs | ${sqlite ? `${(cpu1(x) / cpu1(sqlite)).toFixed(2)}x` : '-'} | ${one && x.setup.url ? `${(cpu1(x) / cpu1(one)).toFixed(2)}x` : '-'} | ${Number.isNaN(x.serverUsPerTarget) ? '-' : `${x.serverUsPerTarget} µs`} |`,
    );
  }
}
