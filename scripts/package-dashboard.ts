import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** packages/dashboard/dist: the dashboard's build (`pnpm --filter @socialpub/dashboard build`). */
export const DASHBOARD_DIST = join(root, 'packages', 'dashboard', 'dist');

/** Every file of the dashboard's build as a path relative to it ('/'-separated), or [] when it was not built. */
export function dashboardBuildFiles(dir: string = DASHBOARD_DIST): string[] {
  if (!existsSync(join(dir, 'index.html'))) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Copies the dashboard's build into `<outDir>/dashboard/`, beside the CLI bundle, where the
 * bundle's entry (packages/cli/src/cli.ts) tells the daemon to serve it from. Without a
 * build the bundle carries none (its daemon answers the dashboard's pages with a page
 * saying so); that is only worth a warning when the dashboard package exists, i.e. the
 * workspace built it out of order.
 */
export function packageDashboard(outDir: string): number {
  // Never a stale copy of an earlier build.
  rmSync(join(outDir, 'dashboard'), { recursive: true, force: true });
  const files = dashboardBuildFiles();
  if (files.length === 0) {
    if (existsSync(join(DASHBOARD_DIST, '..', 'package.json'))) {
      console.warn(`socialpub: no dashboard build at ${DASHBOARD_DIST} (run pnpm --filter @socialpub/dashboard build first); the bundle carries none`);
    }
    return 0;
  }
  cpSync(DASHBOARD_DIST, join(outDir, 'dashboard'), { recursive: true });
  return files.length;
}
