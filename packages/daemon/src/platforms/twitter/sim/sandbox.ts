import { Hono, type Context } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { createTwitterSimulator, X_HOST } from './simulator';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';

/** The X simulator as the daemon serves it for sandbox connections (`/sandbox/api.x.com/...`); video processing takes 2 s. */
export function twitterSandbox(deps: SandboxDeps): Simulator {
  const sim = createTwitterSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), onRemove: sandboxPostRemoval(deps.store), processingMs: 2_000, state: simState(deps.store, 'x') });
  const app = new Hono();
  app.route(`/${X_HOST}`, sim.app);
  return { hosts: [X_HOST], app, rateLimited };
}

/** X's 429 (code 88) with its x-rate-limit-* headers: the window used up, resetting in 15 minutes. */
function rateLimited(c: Context, now: number): Response {
  const reset = Math.ceil(now / 1000) + 15 * 60;
  // The simulator's own 429 body (its per-endpoint windows answer the same).
  return c.body(JSON.stringify({ code: 88, message: 'Too Many Requests: rate limit exceeded' }), 429, {
    'content-type': 'application/json',
    'x-rate-limit-limit': '100',
    'x-rate-limit-remaining': '0',
    'x-rate-limit-reset': String(reset),
  });
}
