// Start-up cost of the CLI: wall time of `socialpub --version`, `--help` and
// `schedule list --json` (a daemon running, a few jobs stored) through bin/socialpub,
// next to a bare `node -e 0` in the same run. Aim: --version within 1.5x of bare node.
// Needs the bundle: `scripts/pnpm build` (or ./scripts/setup) first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'socialpub');
if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) {
  console.error('bench/cli: packages/cli/dist/cli.js is missing; run `scripts/pnpm build` first');
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const home = mkdtempSync(join(tmpdir(), 'socialpub-bench-cli-'));
const env = { ...process.env, SOCIALPUB_HOME: join(home, 'data'), SOCIALPUB_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };

function run(cmd: string, args: string[]): { ms: number; status: number | null; stdout: string; stderr: string } {
  const t = performance.now();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  return { ms: performance.now() - t, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function measure(cmd: string, args: string[]): { median: number; p90: number; min: number } {
  run(cmd, args); // warm the file cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = run(cmd, args);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  return { median: at(0.5), p90: at(0.9), min: times[0] as number };
}

try {
  const upResult = run(bin, ['up', '--port', '0']);
  if (upResult.status !== 0) throw new Error(`socialpub up failed: ${upResult.stderr}`);
  for (const p of ['twitter']) run(bin, ['connect', p, '--sandbox']);
  for (let i = 0; i < 20; i++) run(bin, ['publish', `bench post ${i}`, '-p', 'twitter', '--at', '+48h', '--json']);

  const node = measure(process.execPath, ['-e', '0']);
  const rows: [string, ReturnType<typeof measure>][] = [
    ['node -e 0 (baseline)', node],
    ['socialpub --version', measure(bin, ['--version'])],
    ['socialpub --help', measure(bin, ['--help'])],
    ['socialpub schedule list --json', measure(bin, ['schedule', 'list', '--json'])],
  ];
  console.log(`runs per command: ${RUNS} (node ${process.version})`);
  console.log(`${'command'.padEnd(34)}${'median ms'.padStart(11)}${'p90 ms'.padStart(9)}${'min ms'.padStart(9)}${'ratio'.padStart(8)}`);
  for (const [name, m] of rows) {
    console.log(
      `${name.padEnd(34)}${m.median.toFixed(1).padStart(11)}${m.p90.toFixed(1).padStart(9)}${m.min.toFixed(1).padStart(9)}${(m.median / node.median).toFixed(2).padStart(7)}x`,
    );
  }
  const ratio = (rows[1]?.[1].median ?? 0) / node.median;
  console.log(`--version / bare node: ${ratio.toFixed(2)}x (aim: at most 1.5x) ${ratio <= 1.5 ? 'OK' : 'ABOVE AIM'}`);
} finally {
  run(bin, ['down']);
  rmSync(home, { recursive: true, force: true });
}
