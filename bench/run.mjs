#!/usr/bin/env node
// Runs the benchmarks: `pnpm bench` runs them all, `pnpm bench api scheduler` some.
// Each lives in bench/<name>/run.ts, prints its figures and the ratio to its baseline.
// Arguments starting with `--` go to each chosen bench (`pnpm bench burst --profile`).
import { readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const all = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'run.ts')))
  .map((d) => d.name)
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const chosen = wanted.length ? wanted : all;
let failed = 0;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`no benchmark named ${name} (have: ${all.join(', ')})`);
    failed++;
    continue;
  }
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', join(dir, name, 'run.ts'), ...flags], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
