// Start-up cost of the CLI, each command against a bare `node -e 0` in the same run:
// `--version`, `--help` and the one-request commands (`schedule list --json`, `status`,
// `auth validate`) against a running daemon with a few jobs stored, through
//   - bin/socialpub (the checkout: node dist/cli.js),
//   - the npm package installed from `pnpm pack` into a temp prefix (node_modules/.bin/socialpub),
//   - the single executable, built here with and without V8's code cache (useCodeCache).
// Aims: --version at most 1.5x bare node, schedule list --json at most 2x.
// Needs the build (`scripts/pnpm build`); the npm install needs the registry (or npm's cache).
// Times are wall clock (median of BENCH_RUNS, default 20) and CPU (user + sys of the child).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) {
  console.error('bench/cli: packages/cli/dist/cli.js is missing; run `scripts/pnpm build` first');
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const home = mkdtempSync(join(tmpdir(), 'socialpub-bench-cli-'));
const env = { ...process.env, SOCIALPUB_HOME: join(home, 'data'), SOCIALPUB_CONFIG_DIR: join(home, 'config'), SOCIALPUB_CACHE_DIR: join(home, 'cache'), NO_COLOR: '1' };

/** CPU (user + sys, ms) of every waited-for child so far: /proc/self/stat cutime + cstime, in 10 ms ticks. */
function childrenCpuMs(): number {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  // After "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return ((fields[13] ?? 0) + (fields[14] ?? 0)) * 10;
}

function run(cmd: string, args: string[]): { ms: number; cpuMs: number; status: number | null; stdout: string; stderr: string } {
  const cpu = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  const ms = performance.now() - t;
  return { ms, cpuMs: childrenCpuMs() - cpu, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function measure(cmd: string, args: string[]): { median: number; cpu: number } {
  run(cmd, args); // warm the file cache (and the compile cache)
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = run(cmd, args);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    times.push(r.ms);
    cpus.push(r.cpuMs);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return { median: median(times), cpu: cpus.reduce((a, b) => a + b, 0) / cpus.length };
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

  // The single executable, with and without the code cache.
  const exe = join(home, 'socialpub');
  const exeNoCache = join(home, 'socialpub-no-code-cache');
  const build = (out: string, extra: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-binary.ts'), '--out', out, ...extra], { cwd: root, stdio: 'ignore' });
  build(exe, []);
  build(exeNoCache, ['--no-code-cache']);

  const up = run(bin, ['up', '--port', '0']);
  if (up.status !== 0) throw new Error(`socialpub up failed: ${up.stderr}`);
  run(bin, ['connect', 'twitter', '--sandbox']);
  let jobId = '';
  for (let i = 0; i < 20; i++) jobId = (JSON.parse(run(bin, ['publish', `bench post ${i}`, '-p', 'twitter', '--at', '+48h', '--json']).stdout) as { job_id: string }).job_id;

  console.log(`runs per command: ${RUNS} (node ${process.version}); ratio = median wall time / bare node's, cpu = user+sys of the process`);
  console.log(`${'command'.padEnd(40)}${'median ms'.padStart(11)}${'ratio'.padStart(8)}${'cpu ms'.padStart(9)}${'cpu ratio'.padStart(11)}  aim`);
  const node = measure(process.execPath, ['-e', '0']);
  // Printed as measured, so a long run shows its figures as it goes.
  const row = (name: string, m: ReturnType<typeof measure>, aim: number | null) => {
    const ratio = m.median / node.median;
    const verdict = aim === null ? '' : `${ratio <= aim ? 'OK' : 'ABOVE'} (<= ${aim}x)`;
    console.log(
      `${name.padEnd(40)}${m.median.toFixed(1).padStart(11)}${`${ratio.toFixed(2)}x`.padStart(8)}${m.cpu.toFixed(0).padStart(9)}${`${(m.cpu / node.cpu).toFixed(2)}x`.padStart(11)}  ${verdict}`,
    );
  };
  row('node -e 0 (baseline)', node, null);
  const add = (name: string, cmd: string, args: string[], aim: number | null = null) => row(name, measure(cmd, args), aim);
  add('bin/socialpub --version', bin, ['--version'], 1.5);
  add('npm socialpub --version', npmBin, ['--version'], 1.5);
  add('binary --version', exe, ['--version'], 1.5);
  add('binary --version (no code cache)', exeNoCache, ['--version']);
  add('bin/socialpub --help', bin, ['--help']);
  add('bin/socialpub schedule list --json', bin, ['schedule', 'list', '--json'], 2);
  add('npm socialpub schedule list --json', npmBin, ['schedule', 'list', '--json'], 2);
  add('binary schedule list --json', exe, ['schedule', 'list', '--json'], 2);
  add('binary schedule list (no code cache)', exeNoCache, ['schedule', 'list', '--json']);
  add('bin/socialpub status <job> --json', bin, ['status', jobId, '--json']);
  add('bin/socialpub auth validate --json', bin, ['auth', 'validate', '--json']);
} finally {
  run(bin, ['down']);
  rmSync(home, { recursive: true, force: true });
}
