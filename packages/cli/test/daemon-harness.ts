import { openAdmin, resolveConfig, silentLogger, startDaemon, type Clock, type DaemonHandle } from '@socialpub/daemon';
import { afterAll, beforeAll } from 'vitest';
import { tempHome } from './helpers';

/**
 * A real daemon on 127.0.0.1, port 0, over a temp data dir, plus a key for its user; the
 * returned home runs CLI commands against it (base URL and key through the environment,
 * config in a temp dir). Call stop() in afterAll.
 */
export interface TestDaemonOptions {
  email?: string;
  rateLimits?: boolean;
  clock?: Clock;
  mediaAllowPrivate?: boolean;
  mediaMaxBytes?: number;
  webhookAllowPrivate?: boolean;
}

export async function startTestDaemon(opts: TestDaemonOptions = {}) {
  const home = tempHome();
  const config = resolveConfig(
    {
      dataDir: home.dataDir,
      host: '127.0.0.1',
      port: 0,
      rateLimitsEnabled: opts.rateLimits ?? false,
      mediaAllowPrivate: opts.mediaAllowPrivate ?? false,
      webhookAllowPrivate: opts.webhookAllowPrivate ?? false,
      ...(opts.mediaMaxBytes ? { mediaMaxBytes: opts.mediaMaxBytes } : {}),
    },
    {},
  );
  const daemon: DaemonHandle = await startDaemon(config, { logger: silentLogger, ...(opts.clock ? { clock: opts.clock } : {}) });
  const admin = openAdmin(home.dataDir);
  const key = admin.createKey({ email: opts.email ?? 'tester@example.com' });
  admin.close();
  home.env.SOCIALPUB_BASE_URL = daemon.url;
  home.env.SOCIALPUB_API_KEY = key.api_key;
  return {
    ...home,
    daemon,
    key,
    /** Records sandbox connections for the test user. */
    connect(...platforms: string[]) {
      const a = openAdmin(home.dataDir);
      try {
        for (const p of platforms) a.addSandboxConnection(p, { email: key.email });
      } finally {
        a.close();
      }
    },
    async stop() {
      await daemon.close();
      home.cleanup();
    },
  };
}

export type TestDaemon = Awaited<ReturnType<typeof startTestDaemon>>;

/**
 * A test file's daemon: started in beforeAll (with sandbox connections for `connect`) and
 * stopped in afterAll. The handle may be kept at the top of the file and used in tests and
 * later hooks; reading it before the daemon started throws.
 */
export function useTestDaemon(opts: TestDaemonOptions & { connect?: string[] } = {}): TestDaemon {
  let started: TestDaemon | undefined;
  beforeAll(async () => {
    started = await startTestDaemon(opts);
    if (opts.connect?.length) started.connect(...opts.connect);
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as TestDaemon, {
    get(_target, key) {
      if (!started) throw new Error(`useTestDaemon: the daemon starts in beforeAll; read .${String(key)} in a test or a later hook`);
      return Reflect.get(started, key) as unknown;
    },
  });
}
