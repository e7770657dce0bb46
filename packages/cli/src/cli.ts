/**
 * The CLI under Node: dist/socialpub.js, which dist/cli.js (the npm package's `bin`, and
 * bin/socialpub in a checkout) runs through the chunk loader (loader/node-entry.ts).
 */
import { dirDashboardFiles, useDashboardFiles } from '@socialpub/daemon/dashboard-files';
import { start } from './start';

// The dashboard's build the package carries beside this bundle (dist/dashboard, copied by the build).
useDashboardFiles(() => dirDashboardFiles(process.getBuiltinModule('node:url').fileURLToPath(new URL('./dashboard/', import.meta.url))));
void start(process.argv.slice(2));
