import { openAdmin, resolveConfig, silentLogger, startDaemon, type Clock, type DaemonHandle } from '@socialpub/daemon';
import { tempHome } from './helpers';

/**
 * A real daemon on 127.0.0.1, port 0, over a temp data dir, plus a key for its user; the
 * returned home runs CLI commands against it (base URL and key through the environment,
 * config in a temp dir). Call stop() in afterAll.
 */
export async function startTestDaemon(opts: { email?: string; rateLimits?: boolean; clock?: Clock; mediaAllowPrivate?: boolean; mediaMaxBytes?: number; webhookAllowPrivate?: boolean } = {}) {
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
