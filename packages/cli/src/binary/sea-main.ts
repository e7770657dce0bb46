/**
 * The entry of the single executable (scripts/build-binary.mjs). Before the CLI starts, it
 * tells the daemon where better-sqlite3 comes from: the addon embedded in the executable,
 * written once to a checksummed cache path when a database is first opened.
 */
import { useSqliteDriver } from '@socialpub/daemon/sqlite-driver';
import { start } from '../start';
import { embeddedSqliteDriver } from './native-addon';

useSqliteDriver(() => embeddedSqliteDriver(process.env));
void start(process.argv.slice(2));
