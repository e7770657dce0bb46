/**
 * Burst benchmark (issue 17): N users, each with 2 posts on twitter, threads and facebook,
 * every target due in the same instant (a round time like 09:00:00), published by the real
 * scheduler and publisher through the test adapter at 200-400 ms a platform call. Prints
 * lateness (published minus due) p50/p99/max and how many were published, doubled and
 * lost, at 300 and 3,000 targets — ours next to, in the same run, a model of the publisher
 * before per-connection scheduling (one queue per platform, 4 in flight)
 * and the floor (the platform latency itself: no scheduler can publish a target
 * sooner than its call takes). Each run is its own process over a fresh SQLite file.
 * Also prints each run's CPU time per target, which a loaded machine does not distort the
 * way it distorts lateness (the process waits for a core, it does not use more).
 *
 * Aims: p99 <= 1 s at 300 targets, <= 2 s at 3,000; none doubled, none lost.
 * `--baseline-3000` also runs the model of before at 3,000 targets (about 80 s).
 *
 * End to end (issue 29, e2e.ts), beside them: the same burst from outside — a real daemon
 * in its own process, users with API keys and sandbox connections, POST /content/publish
 * over HTTP, the real adapters to the daemon's simulators at SOCIALPUB_SANDBOX_LATENCY_MS
 * 200-400, lateness read from the simulators' records (GET /sandbox/posts) — with the
 * daemon's own CPU per target (from /proc). Twice, side by side: the simulators in their
 * own process as `socialpub daemon run` starts them (the simulators' CPU printed apart),
 * and on the daemon's event loop (the setup before); `--e2e-sandbox=process` or
 * `--e2e-sandbox=in-process` runs one. The same aims apply (to the shipped setup).
 * `--profile` profiles the daemon during the 3,000 burst (the first setup run) and prints
 * where its time goes (self time by module and by function); `--no-e2e` / `--e2e-only`
 * run one mode. `--e2e-baseline=<dir>` also runs, just before each end-to-end burst with the
 * simulators in their own process, the same burst through the daemon of another checkout
 * (a worktree of main, set up with ./scripts/setup) and prints ours against it: a change
 * measured against its baseline in the same minutes, on a machine whose load moves.
 * `--database=postgres [--daemons=1,2,3] [--baseline=<checkout>]` runs cluster.ts instead:
 * the publisher-only burst on PostgreSQL with 1, 2 and 3 daemons, and one SIGKILLed, beside
 * SQLite in the same run.
 * Beside them, the bare HTTP floor (transport-floor.ts): the same calls at the due time (one
 * a target; Threads containers made before it), latency and processes with nothing of the
 * product — what this machine's two cores allow at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runE2e, SANDBOX_LATENCY, sandboxLatencySupported, type E2eResult, type SandboxMode } from './e2e';
import { pct } from './percentile';
import { summarise } from './profile-summary';
import { runTransportFloor, type TransportFloorResult } from './transport-floor';

interface Result {
  variant: string;
  targets: number;
  published: number;
  doubled: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU time of the run's process per target (µs), from start until every target settled; the floor has none. */
  cpuUsPerTarget?: number;
  /** Lateness in CPU time (µs): the process's CPU used from the due instant until a target was published (variant.ts). */
  cpuLateP50?: number;
  cpuLateP99?: number;
}

const POSTS_PER_CONNECTION = 2;
const PLATFORM_COUNT = 3;
const dir = mkdtempSync(join(tmpdir(), 'socialpub-bench-burst-'));
const script = fileURLToPath(new URL('./variant.ts', import.meta.url));

function measure(variant: string, targets: number): Result {
  const users = targets / (POSTS_PER_CONNECTION * PLATFORM_COUNT);
  const r = spawnSync(
    process.execPath,
    ['--conditions=@socialpub/source', '--import', 'tsx', script, variant, String(users), String(POSTS_PER_CONNECTION), dir],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`${variant} at ${targets} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Result;
}

// The platform latency alone, uniform in 200-400 ms.
const floor = (targets: number): Result => ({ variant: 'floor', targets, published: targets, doubled: 0, lost: 0, p50: 300, p99: 398, max: 400 });

/**
 * The end-to-end floor: the sandbox latency along the calls each target makes in a row
 * before the simulator records its post, with no CPU at all — X and Facebook one call
 * (`POST /2/tweets`, `POST /{page}/feed`), a Threads text post `threadsCalls` (2: container,
 * threads_publish; 4 before issue 29 item 3: publishing limit, container, status,
 * threads_publish). Each call a uniform draw in 200-400 ms (a fixed seed: the same figures
 * every run); a third of the targets are Threads'.
 */
function e2eFloor(targets: number, threadsCalls: number, variant: string): Result {
  // mulberry32, seeded: uniform in [0, 1).
  let seed = 29;
  const draw = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return 200 + (200 * ((t ^ (t >>> 14)) >>> 0)) / 2 ** 32;
  };
  const late = Array.from({ length: targets }, (_, i) => {
    let ms = 0;
    for (let c = 0; c < (i % PLATFORM_COUNT === 1 ? threadsCalls : 1); c++) ms += draw();
    return ms;
  }).sort((a, b) => a - b);
  return { variant, targets, published: targets, doubled: 0, lost: 0, p50: pct(late, 0.5), p99: pct(late, 0.99), max: late[late.length - 1] as number };
}

const label: Record<string, string> = {
  ours: 'per-connection gate (ours)',
  today: 'before: 4 per platform',
  collecting: 'ours + analytics collector',
  floor: 'floor: platform latency',
  e2e: 'end to end, sandbox process',
  'e2e-in-process': 'end to end, sandbox in-process',
  'e2e-baseline': 'baseline: --e2e-baseline daemon',
  'e2e-floor': 'floor e2e before: Threads 2 calls',
  'e2e-floor-before': 'floor e2e earlier: Threads 4 calls',
  'e2e-transport': 'floor e2e: bare HTTP, 1 call each',
};
const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a');

const database = process.argv.find((a) => a.startsWith('--database='))?.slice('--database='.length);
if (database !== undefined && database !== 'postgres' && database !== 'sqlite') throw new Error(`--database=postgres (or sqlite, the default), not ${database}`);
// PostgreSQL and several daemons (issue 34): a run of its own (cluster.ts), beside SQLite.
if (database === 'postgres' || process.argv.some((a) => a.startsWith('--daemons'))) {
  const { runClusterBench } = await import('./cluster');
  await runClusterBench(process.argv.slice(2));
  rmSync(dir, { recursive: true, force: true });
  process.exit(process.exitCode ?? 0);
}

try {
  const withBaseline3000 = process.argv.includes('--baseline-3000');
  const e2e = !process.argv.includes('--no-e2e');
  const publisherOnly = !process.argv.includes('--e2e-only');
  const profile = process.argv.includes('--profile');
  const sandboxArg = process.argv.find((a) => a.startsWith('--e2e-sandbox='))?.slice('--e2e-sandbox='.length);
  if (sandboxArg !== undefined && sandboxArg !== 'process' && sandboxArg !== 'in-process') throw new Error(`--e2e-sandbox=process or --e2e-sandbox=in-process, not ${sandboxArg}`);
  const sandboxModes: SandboxMode[] = sandboxArg ? [sandboxArg] : ['process', 'in-process'];
  const baseline = process.argv.find((a) => a.startsWith('--e2e-baseline='))?.slice('--e2e-baseline='.length);
  const latencySupported = sandboxLatencySupported();
  const aims: [string, boolean][] = [];
  console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores; platform call 200-400 ms; all targets due in the same instant`);
  if (e2e) {
    console.log(
      latencySupported
        ? `end to end: sandbox latency ${SANDBOX_LATENCY} ms (SOCIALPUB_SANDBOX_LATENCY_MS)`
        : `end to end: this daemon has no SOCIALPUB_SANDBOX_LATENCY_MS, its simulators answer at once (floor about 0, not 200-400 ms)`,
    );
  }
  const extra: string[] = [];
  for (const [targets, aim] of [
    [300, 1_000],
    [3_000, 2_000],
  ] as const) {
    const runs: (Result | E2eResult | TransportFloorResult)[] = [];
    if (publisherOnly) runs.push(measure('ours', targets));
    if (publisherOnly) {
      // Issue 36: the same burst with the analytics collector running, every connection's earlier post due for a reading at the burst's instant.
      const c = measure('collecting', targets) as Result & { readTargets?: number; readingCalls?: number; readingCallsBeforeLastPublish?: number; readsAheadOfOwnPublish?: number };
      runs.push(c);
      const ours = runs.find((r): r is Result => r.variant === 'ours');
      extra.push(
        `collecting at ${targets}: ${c.readTargets} earlier posts read after the burst in ${c.readingCalls} reader calls, ${c.readingCallsBeforeLastPublish} of them before the burst's last publish, ${c.readsAheadOfOwnPublish} started on a connection before its own last publish; CPU per target ${c.cpuUsPerTarget} µs against ${ours?.cpuUsPerTarget ?? '—'} µs without the collector (the same run; CPU time, which the machine's load does not stretch)`,
      );
      if (ours?.cpuLateP99 !== undefined && c.cpuLateP99 !== undefined) {
        extra.push(
          `lateness in CPU time at ${targets} (the process's CPU from the due instant to each publish; the machine's load does not stretch it): p50 ${(c.cpuLateP50! / 1000).toFixed(0)} ms / p99 ${(c.cpuLateP99 / 1000).toFixed(0)} ms with the collector, ${(ours.cpuLateP50! / 1000).toFixed(0)} ms / ${(ours.cpuLateP99 / 1000).toFixed(0)} ms without; p99 ratio ${(c.cpuLateP99 / ours.cpuLateP99).toFixed(2)}x`,
        );
      }
      aims.push([`collection never ahead of a publish on its connection at ${targets}`, c.readsAheadOfOwnPublish === 0]);
    }
    if (publisherOnly && (targets <= 300 || withBaseline3000)) runs.push(measure('today', targets));
    for (const [i, sandbox] of (e2e ? sandboxModes : []).entries()) {
      if (baseline && sandbox === 'process') {
        const b = await runE2e(targets, POSTS_PER_CONNECTION, { sandbox, baseline });
        runs.push(b);
        extra.push(`${label[b.variant]} at ${targets}: intake ${b.intakePerSecond} POST/s (${b.intakeUsPerPost} µs daemon CPU each), last settled ${(b.settleMs / 1000).toFixed(2)} s after due, daemon peak RSS ${b.rssMb} MB; targets ${JSON.stringify(b.statuses)}, attempts ${JSON.stringify(b.attempts)}`);
      }
      const profilePath = profile && i === 0 && targets === 3_000 ? join(process.env.BENCH_PROFILE_DIR ?? dir, 'daemon-3000.cpuprofile') : undefined;
      const r = await runE2e(targets, POSTS_PER_CONNECTION, { sandbox, ...(profilePath ? { profilePath } : {}) });
      runs.push(r);
      const sim = r.sandboxCpuUsPerTarget === null ? (sandbox === 'process' ? `simulators' process restarted ${r.sandboxRestarts}x, its CPU not measured` : "simulators' CPU inside the daemon's") : `simulators' process ${r.sandboxCpuUsPerTarget} µs CPU a target`;
      extra.push(
        `${label[r.variant]} at ${targets}: intake ${r.intakePerSecond} POST/s (${r.intakeUsPerPost} µs daemon CPU each)${r.intakeBeforeDue ? '' : ' — NOT all in before the due time'}, last settled ${(r.settleMs / 1000).toFixed(2)} s after due, p50 / p99 by platform ${Object.entries(r.byPlatform).map(([p, f]) => `${p} ${s(f.p50)} / ${s(f.p99)}`).join(', ')}, daemon peak RSS ${r.rssMb} MB, ${sim}; targets ${JSON.stringify(r.statuses)}, attempts ${JSON.stringify(r.attempts)}`,
      );
      if (profilePath) extra.push(`daemon CPU profile, 3,000 burst, sandbox ${sandbox} (0.5 s before due to the last settled):\n${summarise(profilePath)}`);
      aims.push(
        [`${label[r.variant]} p99 <= ${aim / 1000} s at ${targets}`, r.p99 <= aim],
        [`${label[r.variant]} none doubled or lost at ${targets}`, r.doubled === 0 && r.lost === 0 && r.published === targets],
      );
    }
    if (e2e) {
      const bare: TransportFloorResult = await runTransportFloor(targets);
      runs.push(bare);
      extra.push(`${label[bare.variant]} at ${targets}: undici client ${bare.cpuUsPerTarget} µs CPU a target, bare node:http servers ${bare.serverCpuUsPerTarget} µs (transport-floor.ts)`);
    }
    runs.push(floor(targets));
    if (e2e) runs.push(e2eFloor(targets, 2, 'e2e-floor'), e2eFloor(targets, 4, 'e2e-floor-before'));
    console.log(`\n${targets.toLocaleString()} targets (${targets / (POSTS_PER_CONNECTION * PLATFORM_COUNT)} users x ${PLATFORM_COUNT} platforms x ${POSTS_PER_CONNECTION} posts)`);
    console.log(`${'variant'.padEnd(34)}${'p50'.padStart(10)}${'p99'.padStart(10)}${'max'.padStart(10)}${'published'.padStart(11)}${'doubled'.padStart(9)}${'lost'.padStart(6)}${'CPU/target'.padStart(12)}`);
    for (const r of runs) {
      console.log(
        `${(label[r.variant] ?? r.variant).padEnd(34)}${s(r.p50).padStart(10)}${s(r.p99).padStart(10)}${s(r.max).padStart(10)}${String(r.published).padStart(11)}${String(r.doubled).padStart(9)}${String(r.lost).padStart(6)}${(r.cpuUsPerTarget === undefined ? '—' : `${r.cpuUsPerTarget} µs`).padStart(12)}`,
      );
    }
    const [first] = runs as [Result];
    for (const b of runs.slice(1)) {
      console.log(`ratio of ${label[first.variant]} to ${label[b.variant]}: p99 ${(first.p99 / b.p99).toFixed(2)}x, max ${(first.max / b.max).toFixed(2)}x`);
    }
    const ours = runs.find((r) => r.variant === 'e2e');
    const base = runs.find((r) => r.variant === 'e2e-baseline');
    if (ours && base) {
      console.log(`ours against the baseline daemon: p99 ${(ours.p99 / base.p99).toFixed(2)}x, p50 ${(ours.p50 / base.p50).toFixed(2)}x, daemon CPU/target ${((ours.cpuUsPerTarget ?? 0) / (base.cpuUsPerTarget ?? 1)).toFixed(2)}x`);
    }
    const bare = runs.find((r) => r.variant === 'e2e-transport');
    if (ours && bare) {
      console.log(`ours against the bare HTTP floor: p99 ${(ours.p99 / bare.p99).toFixed(2)}x, ${((ours.p99 - bare.p99) / 1000).toFixed(2)} s later at p99: what the product adds to the same exchanges at the due time`);
    }
    for (const e of runs.filter((r) => r.variant.startsWith('e2e') && r.variant !== 'e2e-baseline' && r.variant !== 'e2e-transport' && !r.variant.startsWith('e2e-floor'))) {
      if (e !== first) console.log(`ratio of ${label[e.variant]} to ${label[first.variant]}: p99 ${(e.p99 / first.p99).toFixed(2)}x, CPU/target ${((e.cpuUsPerTarget ?? 0) / (first.cpuUsPerTarget ?? 1)).toFixed(1)}x`);
    }
    if (publisherOnly) {
      aims.push([`p99 <= ${aim / 1000} s at ${targets}`, first.p99 <= aim], [`none doubled or lost at ${targets}`, first.doubled === 0 && first.lost === 0 && first.published === targets]);
    }
  }
  if (extra.length) console.log(`\n${extra.join('\n')}`);
  console.log(`\naims: ${aims.map(([name, ok]) => `${name} ${ok ? 'met' : 'MISSED'}`).join('; ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
