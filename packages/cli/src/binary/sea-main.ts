/**
 * The entry of the single executable (scripts/build-binary.mjs). Before the CLI starts, it
 * tells the daemon where better-sqlite3 comes from: the addon embedded in the executable,
 * written once to a checksummed cache path when a database is first opened.
 */
import { assetDashboardFiles, useDashboardFiles } from '@socialpub/daemon/dashboard-files';
import { useSqliteDriver } from '@socialpub/daemon/sqlite-driver';
import { start } from '../start';
import { embeddedSqliteDriver } from './native-addon';

useSqliteDriver(() => embeddedSqliteDriver(process.env));
// The dashboard's build, embedded as assets `dashboard/<path>` with a manifest of the paths.
useDashboardFiles(() =>
  assetDashboardFiles((name) => {
    try {
      return process.getBuiltinModule('node:sea').getAsset(name);
    } catch {
      return undefined;
    }
  }),
);
void start(process.argv.slice(2));
