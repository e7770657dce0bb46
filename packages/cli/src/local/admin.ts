import { mkdir } from 'node:fs/promises';
import type { Admin } from '@socialpub/daemon';
import { NotFoundError } from '../errors';

/**
 * Local admin on the data dir — the self-hosted stand-in for a dashboard. The CLI reaches
 * into the daemon package only here (and to run the daemon): keys, connections, settings
 * and the simulators' record of sandbox posts. It works whether or not a daemon runs
 * (SQLite in WAL mode takes both). The admin is closed when `fn` settles.
 */
export async function withAdmin<T>(dataDir: string, fn: (admin: Admin) => T | Promise<T>): Promise<T> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { openAdmin } = await import('@socialpub/daemon');
  const admin = openAdmin(dataDir);
  try {
    return await fn(admin);
  } finally {
    admin.close();
  }
}

/**
 * The admin for a command that only reads: the data dir must hold a database already (a
 * read never creates a data dir, nor an empty database in one).
 */
export async function readAdmin<T>(dataDir: string, fn: (admin: Admin) => T | Promise<T>): Promise<T> {
  const { existsSync } = process.getBuiltinModule('node:fs');
  const { adminDatabase, isPostgresUrl } = await import('@socialpub/daemon');
  // On PostgreSQL (SOCIALPUB_DATABASE_URL, config.json database_url) there is no file to look for.
  const database = existsSync(dataDir) ? adminDatabase(dataDir) : null;
  if (database === null || (!isPostgresUrl(database) && !existsSync(database))) {
    throw new NotFoundError(`no socialpub data in ${dataDir}`, {
      hint: 'run `socialpub up` to start a daemon there, or name the data dir with --data-dir (or the daemon with --base-url and --api-key)',
    });
  }
  return withAdmin(dataDir, fn);
}
