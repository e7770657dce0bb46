import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAdmin, resolveConfig, silentLogger, startDaemon, type Admin, type Clock, type ConfigInput, type DaemonHandle } from '@socialpub/daemon';

export interface RealDaemon {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** A key of EMAIL, who has sandbox connections for `connect`. */
  apiKey: string;
  email: string;
  dataDir: string;
  admin: Admin;
  daemon: DaemonHandle;
  close(): Promise<void>;
}

export interface RealDaemonOptions {
  /** The daemon's clock (a ManualClock to move rate windows); default the system clock. */
  clock?: Clock;
  rateLimits?: ConfigInput['rateLimits'];
  /** Platforms with a sandbox connection. Default: twitter. */
  connect?: string[];
  /** Size cap of a prepared or uploaded file (default 500 MB). */
  mediaMaxBytes?: number;
}

export const EMAIL = 'sdk-tests@example.com';

/** The real daemon, in this process, on 127.0.0.1 port 0 over a temporary data dir, with a key made through local admin. */
export async function startRealDaemon(opts: RealDaemonOptions = {}): Promise<RealDaemon> {
  const dataDir = await mkdtemp(join(tmpdir(), 'socialpub-sdk-'));
  // An empty environment: SOCIALPUB_* of the machine must not change the daemon under test,
  // except SOCIALPUB_MEDIA_ALLOW_PRIVATE, which tests with loopback media sources set on purpose.
  const env = process.env.SOCIALPUB_MEDIA_ALLOW_PRIVATE ? { SOCIALPUB_MEDIA_ALLOW_PRIVATE: process.env.SOCIALPUB_MEDIA_ALLOW_PRIVATE } : {};
  const config = resolveConfig(
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      logLevel: 'error',
      ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
      ...(opts.mediaMaxBytes ? { mediaMaxBytes: opts.mediaMaxBytes } : {}),
    },
    env,
  );
  const daemon = await startDaemon(config, { logger: silentLogger, ...(opts.clock ? { clock: opts.clock } : {}) });
  const admin = openAdmin(dataDir, opts.clock ? { clock: opts.clock } : {});
  const { api_key } = admin.createKey({ email: EMAIL, name: 'sdk tests' });
  for (const platform of opts.connect ?? ['twitter']) admin.addSandboxConnection(platform, { email: EMAIL });
  return {
    url: daemon.url,
    apiKey: api_key,
    email: EMAIL,
    dataDir,
    admin,
    daemon,
    async close() {
      admin.close();
      await daemon.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
