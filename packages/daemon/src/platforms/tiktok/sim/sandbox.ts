import { Hono, type Context } from 'hono';
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
  const sim = createTiktokSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), processingMs: 0, state: simState(deps.store, 'tiktok') });
  const app = new Hono();
  app.route(`/${TIKTOK_HOST}`, sim.app);
  return { hosts: [TIKTOK_HOST], app, rateLimited };
}

/** TikTok's 429: its envelope with `rate_limit_exceeded` (TikTok sends no rate-limit headers; a log id like every answer). */
function rateLimited(c: Context, now: number): Response {
  return c.json({ data: {}, error: { code: 'rate_limit_exceeded', message: 'The API rate limit was exceeded.', log_id: `sim${now.toString(36)}` } }, 429);
}
