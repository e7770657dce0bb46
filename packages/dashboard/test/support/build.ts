import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(pkg, 'dist');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The sources' newest change against dist/index.html's build. */
function stale(): boolean {
  const built = join(DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(newest(join(pkg, 'src')), ...['index.html', 'signin.html', 'review-link.html', 'vite.config.ts'].map((f) => statSync(join(pkg, f)).mtimeMs));
  return sources > statSync(built).mtimeMs;
}

/**
 * packages/dashboard/dist as the daemon serves it, built by Vite when missing or older
 * than the sources (test files running at once take turns through a lock directory).
 */
export async function ensureDashboardBuilt(): Promise<void> {
  if (!stale()) return;
  const lock = join(pkg, 'node_modules', '.dashboard-build-lock');
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (i > 600) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    if (!stale()) return;
    // In a child process with NODE_ENV=production: under vitest (NODE_ENV=test) Vite would
    // build another bundle than `pnpm build` does.
    const vite = join(pkg, 'node_modules', 'vite', 'bin', 'vite.js');
    const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: pkg, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`vite build failed: ${r.stderr || r.stdout}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
