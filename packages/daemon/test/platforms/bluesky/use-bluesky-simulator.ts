import { Hono } from 'hono';
import type { Defer } from '../../support/cleanups';
import { BSKY_HOST, VIDEO_HOST } from '../../../src/platforms/bluesky/pds-access';
import { createBlueskySimulator, type BlueskySimulatorOptions } from '../../../src/platforms/bluesky/sim/simulator';
import { startSandboxOrigins } from '../../../src/platforms/sandbox-origins';

/**
 * The Bluesky simulator served as the daemon serves it: each host at a loopback origin of its
 * own (`@atproto/api` drops a path prefix from its service URL), torn down through `defer`.
 */
export async function useBlueskySimulator(defer: Defer, options: BlueskySimulatorOptions) {
  const sim = createBlueskySimulator(options);
  const app = new Hono();
  app.route(`/${BSKY_HOST}`, sim.pds);
  app.route(`/${VIDEO_HOST}`, sim.video);
  const origins = await startSandboxOrigins(app, [BSKY_HOST, VIDEO_HOST]);
  defer(() => origins.close());
  return { sim, pdsUrl: origins.endpoints[BSKY_HOST]!, videoUrl: origins.endpoints[VIDEO_HOST]!, baseUrl: (host: string) => origins.endpoints[host === VIDEO_HOST ? VIDEO_HOST : BSKY_HOST]! };
}
