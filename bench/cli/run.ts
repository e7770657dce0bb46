// Start-up cost of the CLI, each command against a bare `node -e 0` measured in the same run:
// `--version`, `--help` and the one-request commands (`schedule list --json`, `status`, `schedule show`,
// `auth validate`) against a running daemon with 20 jobs stored, through
//   - bin/socialpub (the checkout: node dist/cli.js),
//   - the npm package installed from `pnpm pack` into a temp prefix (node_modules/.bin/socialpub),
//   - the single executable, built here;
// with and without the code caches of the chunk loader (SOCIALPUB_CODE_CACHE=off; for the
// executable that also leaves out the caches built into it).
// Aims: --version at most 1.5x bare node, schedule list --json at most 1.7x (so a noisy run stays
// under 2x; issue #35), for every form, by wall time and by CPU.
// The machine may be shared and busy, so the commands are run in rounds (each round runs
// the baseline and every command once, in turn) and each row is the median of its rounds:
// a burst of load touches the baseline as much as the commands. Before the rounds each
// command runs once, which writes its code caches (as any earlier run of it would).
// Needs the build (`scripts/pnpm build`); the npm install needs the registry (or npm's cache).
// Times are wall clock (median of BENCH_RUNS rounds, default 20) and CPU (user + sys of the child, mean:
// each reading is in the kernel's 10 ms ticks, so a row's mean over 20 rounds is good to about 1 ms; on a
// busy machine the CPU ratio is the steadier figure, as wall time adds the waits for a core).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) {
  console.error('bench/cli: packages/cli/dist/cli.js is missing; run `scripts/pnpm build` first');
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const home = mkdtempSync(join(tmpdir(), 'socialpub-bench-cli-'));
// Rate limits off: the rounds make a few hundred requests of the scheduled-content class (100 an hour by default).
const env: NodeJS.ProcessEnv = { ...process.env, SOCIALPUB_HOME: join(home, 'data'), SOCIALPUB_CONFIG_DIR: join(home, 'config'), SOCIALPUB_CACHE_DIR: join(home, 'cache'), SOCIALPUB_RATE_LIMITS: 'off', NO_COLOR: '1' };
const noCodeCache: NodeJS.ProcessEnv = { ...env, SOCIALPUB_CODE_CACHE: 'off' };

/** CPU (user + sys, ms) of every waited-for child so far: /proc/self/stat cutime + cstime, in 10 ms ticks. */
function childrenCpuMs(): number {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  // After "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return ((fields[13] ?? 0) + (fields[14] ?? 0)) * 10;
}

function run(cmd: string, args: string[], runEnv: NodeJS.ProcessEnv = env): { ms: number; cpuMs: number; status: number | null; stdout: string; stderr: string } {
  const cpu = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(cmd, args, { env: runEnv, encoding: 'utf8' });
  const ms = performance.now() - t;
  return { ms, cpuMs: childrenCpuMs() - cpu, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Row {
  name: string;
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** The most this command may take, as a multiple of bare node's wall time. */
  aim?: number;
  times: number[];
  cpus: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Every row once (writing its caches), then RUNS rounds of every row in turn. */
function measure(rows: Row[]): void {
  for (const row of rows) run(row.cmd, row.args, row.env);
  for (let i = 0; i < RUNS; i++) {
    for (const row of rows) {
      const r = run(row.cmd, row.args, row.env);
      if (r.status !== 0) throw new Error(`${row.cmd} ${row.args.join(' ')} exited ${r.status}: ${r.stderr}`);
      row.times.push(r.ms);
      row.cpus.push(r.cpuMs);
    }
  }
}

const bin = join(root, 'bin', 'socialpub');
const pnpm = join(root, 'scripts', 'pnpm');
try {
  // The npm package, installed as a user would.
  const packs = join(home, 'packs');
  mkdirSync(packs);
  execFileSync(pnpm, ['pack', '--pack-destination', packs], { cwd: join(root, 'packages', 'cli'), stdio: 'ignore' });
  const tgz = join(packs, readdirSync(packs)[0] as string);
  const prefix = join(home, 'npm');
  mkdirSync(prefix);
  writeFileSync(join(prefix, 'package.json'), '{"private":true}');
  execFileSync('npm', ['install', tgz, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: prefix, stdio: 'ignore' });
  const npmBin = join(prefix, 'node_modules', '.bin', 'socialpub');

  // The single executable.
  const exe = join(home, 'socialpub');
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-binary.ts'), '--out', exe], { cwd: root, stdio: 'ignore' });

  const up = run(bin, ['up', '--port', '0']);
  if (up.status !== 0) throw new Error(`socialpub up failed: ${up.stderr}`);
  run(bin, ['connect', 'twitter', '--sandbox']);
  let jobId = '';
  for (let i = 0; i < 20; i++) jobId = (JSON.parse(run(bin, ['publish', `bench post ${i}`, '-p', 'twitter', '--at', '+48h', '--json']).stdout) as { job_id: string }).job_id;

  const rows: Row[] = [];
  const add = (name: string, cmd: string, args: string[], extra: Partial<Row> = {}) => rows.push({ name, cmd, args, times: [], cpus: [], ...extra });
  add('node -e 0 (baseline)', process.execPath, ['-e', '0']);
  add('bin/socialpub --version', bin, ['--version'], { aim: 1.5 });
  add('npm socialpub --version', npmBin, ['--version'], { aim: 1.5 });
  add('binary --version', exe, ['--version'], { aim: 1.5 });
  add('bin/socialpub --help', bin, ['--help']);
  add('bin/socialpub schedule list --json', bin, ['schedule', 'list', '--json'], { aim: 1.7 });
  add('npm socialpub schedule list --json', npmBin, ['schedule', 'list', '--json'], { aim: 1.7 });
  add('binary schedule list --json', exe, ['schedule', 'list', '--json'], { aim: 1.7 });
  add('npm schedule list (no code cache)', npmBin, ['schedule', 'list', '--json'], { env: noCodeCache });
  add('binary schedule list (no code cache)', exe, ['schedule', 'list', '--json'], { env: noCodeCache });
  add('bin/socialpub status <job> --json', bin, ['status', jobId, '--json']);
  add('bin/socialpub schedule show <job> --json', bin, ['schedule', 'show', jobId, '--json']);
  add('bin/socialpub auth validate --json', bin, ['auth', 'validate', '--json']);
  measure(rows);

  const [node, ...commands] = rows as [Row, ...Row[]];
  const baseMs = median(node.times);
  const baseCpu = node.cpus.reduce((a, b) => a + b, 0) / RUNS;
  console.log(`${RUNS} rounds (node ${process.version}, load ${loadavg()[0]?.toFixed(1)} at the end); ratio = median wall time / the baseline's median in the same rounds; cpu = user+sys, mean`);
  console.log(`${'command'.padEnd(40)}${'median ms'.padStart(11)}${'node -e 0'.padStart(11)}${'ratio'.padStart(8)}${'cpu ms'.padStart(9)}${'cpu ratio'.padStart(11)}  aim`);
  for (const row of [node, ...commands]) {
    const ms = median(row.times);
    const cpu = row.cpus.reduce((a, b) => a + b, 0) / RUNS;
    const ratio = ms / baseMs;
    const cpuRatio = cpu / baseCpu;
    const verdict = row.aim === undefined ? '' : `at most ${row.aim}x: wall ${ratio <= row.aim ? 'yes' : 'NO'}, cpu ${cpuRatio <= row.aim ? 'yes' : 'NO'}`;
    console.log(
      `${row.name.padEnd(40)}${ms.toFixed(1).padStart(11)}${baseMs.toFixed(1).padStart(11)}${`${ratio.toFixed(2)}x`.padStart(8)}${cpu.toFixed(1).padStart(9)}${`${cpuRatio.toFixed(2)}x`.padStart(11)}  ${verdict}`,
    );
  }
} finally {
  run(bin, ['down']);
  rmSync(home, { recursive: true, force: true });
}
