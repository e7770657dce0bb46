/**
 * `pnpm bench burst --database postgres [--daemons 1,2,3] [--baseline=<checkout>]`
 * (issue 34, item 7): the 3,000-target burst of bench/burst's publisher-only mode, the real
 * scheduler and publisher through the test adapter at 200-400 ms a call, on PostgreSQL with
 * 1, 2 and 3 daemons' publishers (processes) over one database, beside SQLite in the same
 * run; then 3 daemons with one SIGKILLed in the middle of the burst.
 *
 * Per run: lateness (published minus due) p50/p99/max, doubled (the shared ledger) and lost
 * targets, the daemons' CPU per target (summed over the processes) and the PostgreSQL
 * server's (its backends, from /proc), and claims lost to contention (targets a daemon's
 * claim asked for that another had taken). The throwaway cluster syncs to disk (fsync on),
 * as SQLite's FULL does. `--baseline=<checkout>` also runs the SQLite burst of another
 * checkout (a worktree of main before PostgreSQL) for the SQLite path's ratio. `--no-kill`
 * leaves out the run with a daemon SIGKILLed (a shorter look at the CPU per target).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster';
import { FileLedger } from '../../packages/daemon/test/support/test-adapter';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { pct } from './percentile';

const WORKER = fileURLToPath(new URL('./cluster-worker.ts', import.meta.url));
const VARIANT = fileURLToPath(new URL('./variant.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USERS = 500;
const PER = 2;
const TARGETS = USERS * PER * 3;

interface WorkerResult {
  pid: number;
  published: number;
  asked: number;
  got: number;
  cpuUs: number;
}

interface Row {
  setup: string;
  targets: number;
  published: number;
  doubled: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  cpuUsPerTarget: number;
  serverUsPerTarget?: number;
  claimsLost?: number;
  note?: string;
}

/** CPU (µs) of the cluster's server processes: the postmaster and every child of it, from /proc. */
export function serverCpuUs(cluster: PostgresCluster): number {
  const pidFile = join(cluster.dataDir, 'postmaster.pid');
  const master = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      if (Number(name) === master || ppid === master) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10_000;
}

function node(args: string[]) {
  return spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function lines(child: ReturnType<typeof node>, onLine: (line: string) => void): Promise<number | null> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    let i: number;
    while ((i = out.indexOf('\n')) >= 0) {
      onLine(out.slice(0, i));
      out = out.slice(i + 1);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? resolve(code) : reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`)))));
}

async function seed(url: string): Promise<number> {
  const r = spawnSync(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', WORKER, 'seed', url, String(USERS), String(PER)], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seed failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { due: number }).due;
}

/** One burst on a fresh schema with `daemons` publishers; `killAfter`: SIGKILL the first once that many targets are in the ledger. */
async function burst(cluster: PostgresCluster, daemons: number, dir: string, killAfter?: number): Promise<Row & { killedDoneAfterMs?: number }> {
  const schema = `bench_${daemons}_${killAfter ? 'kill' : 'run'}`;
  const url = `${cluster.url}?schema=${schema}`;
  openDatabase(url).close();
  await seed(url);
  const ledgerPath = join(dir, `${schema}.jsonl`);
  const watch = openDatabase(url);
  const heldBy = watch.prepare<[string], string>("SELECT id FROM targets WHERE status = 'publishing' AND lease_owner = ?").pluck();
  const busiest = watch.prepare<[], { owner: string }>("SELECT lease_owner AS owner, count(*) AS n FROM targets WHERE status = 'publishing' GROUP BY lease_owner ORDER BY n DESC LIMIT 1");
  let inFlightAtKill: string[] = [];
  const results: WorkerResult[] = [];
  const children = Array.from({ length: daemons }, () => node([WORKER, 'work', url, ledgerPath, String(TARGETS), String(daemons)]));
  const server0 = serverCpuUs(cluster);
  let killedAt: number | null = null;
  let killedPid: number | null = null;
  const watching =
    killAfter === undefined
      ? null
      : setInterval(() => {
          if (killedAt !== null || !existsSync(ledgerPath)) return;
          if (FileLedger.read(ledgerPath).length >= killAfter) {
            // The daemon holding the most claims (lease owners are host/pid/random).
            const owner = busiest.get()?.owner;
            const victim = children.find((c) => owner !== undefined && owner.split('/')[1] === String(c.pid)) ?? children[0]!;
            killedPid = victim.pid ?? null;
            victim.kill('SIGKILL');
            killedAt = Date.now();
            inFlightAtKill = owner !== undefined && victim.pid !== undefined && owner.split('/')[1] === String(victim.pid) ? (heldBy.all(owner) as string[]) : [];
          }
        }, 50);
  let reported = 0;
  let serverAtEnd = 0;
  const done = children.map((c) =>
    lines(c, (line) => {
      if (!line.startsWith('{')) return;
      results.push(JSON.parse(line) as WorkerResult);
      if (++reported === daemons - (killAfter === undefined ? 0 : 1)) serverAtEnd = serverCpuUs(cluster);
    }),
  );
  await Promise.all(done);
  if (watching) clearInterval(watching);
  watch.close();
  const db = openDatabase(url);
  const rows = db.prepare("SELECT id, due_at, published_at, lease_owner FROM targets WHERE status = 'published'").all() as { id: string; due_at: number; published_at: number }[];
  const lost = db.prepare("SELECT count(*) FROM targets WHERE status <> 'published'").pluck().get() as number;
  // The killed daemon's claims, finished by the others: when the last of them was done.
  let killedDoneAfterMs: number | undefined;
  if (killedAt !== null) {
    const publishedAt = new Map(rows.map((r) => [r.id, r.published_at]));
    const last = Math.max(killedAt, ...inFlightAtKill.map((id) => publishedAt.get(id) ?? Number.POSITIVE_INFINITY));
    killedDoneAfterMs = last - killedAt;
  }
  db.close();
  const late = rows.map((r) => r.published_at - r.due_at).sort((x, y) => x - y);
  const count = new Map<string, number>();
  for (const e of FileLedger.read(ledgerPath)) count.set(e.targetId, (count.get(e.targetId) ?? 0) + 1);
  const cpuUs = results.reduce((s, r) => s + r.cpuUs, 0);
  return {
    setup: killAfter === undefined ? `PostgreSQL, ${daemons} daemon${daemons > 1 ? 's' : ''}` : `PostgreSQL, ${daemons} daemons, one SIGKILLed`,
    targets: TARGETS,
    published: rows.length,
    doubled: [...count.values()].filter((n) => n > 1).length,
    lost,
    p50: pct(late, 0.5),
    p99: pct(late, 0.99),
    max: late[late.length - 1] ?? Number.NaN,
    cpuUsPerTarget: Math.round(cpuUs / TARGETS),
    serverUsPerTarget: Math.round(((serverAtEnd || serverCpuUs(cluster)) - server0) / TARGETS),
    claimsLost: results.reduce((s, r) => s + (r.asked - r.got), 0),
    ...(killedDoneAfterMs !== undefined
      ? { killedDoneAfterMs, note: `SIGKILLed holding ${inFlightAtKill.length} claimed targets; the others finished them ${(killedDoneAfterMs / 1000).toFixed(1)} s after the kill (pid ${killedPid})` }
      : {}),
  };
}

function sqliteBurst(checkout: string, label: string, dir: string): Row {
  const script = checkout === ROOT ? VARIANT : join(checkout, 'bench', 'burst', 'variant.ts');
  const r = spawnSync(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', script, 'ours', String(USERS), String(PER), dir], { cwd: checkout, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${label} failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!) as Omit<Row, 'setup'>;
  return { ...j, setup: label };
}

export async function runClusterBench(argv: string[]): Promise<void> {
  const daemonsArg = argv.find((x) => x.startsWith('--daemons'))?.split('=')[1] ?? argv[argv.indexOf('--daemons') + 1];
  const counts = daemonsArg === 'kill' ? [] : (daemonsArg && /^[\d,]+$/.test(daemonsArg) ? daemonsArg : '1,2,3').split(',').map(Number);
  const baseline = argv.find((x) => x.startsWith('--baseline='))?.slice('--baseline='.length);
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-bench-cluster-'));
  const cluster = await startPostgresCluster({ durable: true });
  const started = new Date().toISOString();
  const load0 = loadavg()[0]!.toFixed(1);
  const out: (Row & { killedDoneAfterMs?: number })[] = [];
  try {
    out.push(sqliteBurst(ROOT, 'SQLite, 1 daemon (this checkout)', dir));
    if (baseline) out.push(sqliteBurst(baseline, `SQLite, 1 daemon (${baseline})`, mkdtempSync(join(tmpdir(), 'socialpub-bench-base-'))));
    for (const n of counts) out.push(await burst(cluster, n, dir));
    if (!argv.includes('--no-kill')) out.push(await burst(cluster, 3, dir, Math.round(TARGETS / 10)));
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const sqlite = out[0]!;
  const one = out.find((r) => r.setup === 'PostgreSQL, 1 daemon');
  console.log(`bench/burst --database postgres: ${TARGETS} targets due at once, 200-400 ms a platform call; ${started}, load ${load0} -> ${loadavg()[0]!.toFixed(1)}`);
  console.log('| setup | published | doubled | lost | p50 | p99 | max | daemons CPU/target | server CPU/target | claims lost | vs SQLite (daemons CPU) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of out) {
    const ratio = (r.cpuUsPerTarget / sqlite.cpuUsPerTarget).toFixed(2);
    console.log(
      `| ${r.setup} | ${r.published} | ${r.doubled} | ${r.lost} | ${(r.p50 / 1000).toFixed(2)} s | ${(r.p99 / 1000).toFixed(2)} s | ${(r.max / 1000).toFixed(2)} s | ${r.cpuUsPerTarget} µs | ${r.serverUsPerTarget === undefined ? '-' : `${r.serverUsPerTarget} µs`} | ${r.claimsLost ?? '-'} | ${ratio}x |`,
    );
  }
  for (const r of out) if (r.note) console.log(`${r.setup}: ${r.note}`);
  if (one) {
    for (const r of out.filter((x) => x.setup.startsWith('PostgreSQL') && x.setup !== one.setup && !x.note)) {
      console.log(`${r.setup}: the daemons' CPU per target ${(r.cpuUsPerTarget / one.cpuUsPerTarget).toFixed(2)}x one daemon's (aim <= 1.2x)`);
    }
    console.log(`PostgreSQL, 1 daemon: the daemon's CPU per target ${(one.cpuUsPerTarget / sqlite.cpuUsPerTarget).toFixed(2)}x SQLite's (aim <= 1.5x)`);
  }
  if (baseline) console.log(`SQLite path: ${(sqlite.cpuUsPerTarget / out[1]!.cpuUsPerTarget).toFixed(2)}x the baseline's CPU per target (aim <= 1.15x)`);
  const bad = out.filter((r) => r.doubled > 0 || r.lost > 0);
  if (bad.length) {
    console.log(`DOUBLED OR LOST in: ${bad.map((r) => r.setup).join(', ')}`);
    process.exitCode = 1;
  }
}
