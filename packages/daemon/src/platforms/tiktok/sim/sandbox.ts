import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createTiktokSimulator, TIKTOK_HOST } from './simulator';

/**
 * The TikTok simulator as the daemon serves it (`/sandbox/open.tiktokapis.com/...`; its
 * upload URLs point back under the same prefix). Processing is instant here so sandbox
 * publishes settle at once on the real clock (the contract tests cover the progression).
 */
export function tiktokSandbox(deps: SandboxDeps): Simulator {
  const sim = createTiktokSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.db), processingMs: 0, state: simState(deps.db, 'tiktok') });
  const app = new Hono();
  app.route(`/${TIKTOK_HOST}`, sim.app);
  return { hosts: [TIKTOK_HOST], app };
}
