import { mkdir } from 'node:fs/promises';
import type { Admin } from '@socialpub/daemon';

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
