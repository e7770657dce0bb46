import { Hono, type Context } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createYoutubeSimulator } from './simulator';

/** The YouTube and Google OAuth simulators as the daemon serves them (`/sandbox/www.googleapis.com/...`). */
export function youtubeSandbox(deps: SandboxDeps): Simulator {
  const sim = createYoutubeSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), onRemove: sandboxPostRemoval(deps.store), state: simState(deps.store, 'youtube') });
  const app = new Hono();
  for (const { host, app: hostApp } of sim.apps) app.route(`/${host}`, hostApp);
  return { hosts: sim.apps.map((a) => a.host), app, rateLimited };
}

/** Google's 429 (`rateLimitExceeded`, domain usageLimits) with its Retry-After. */
function rateLimited(c: Context, _now: number): Response {
  const message = 'The request cannot be completed because you have exceeded your quota.';
  return c.json({ error: { code: 429, message, errors: [{ message, domain: 'usageLimits', reason: 'rateLimitExceeded' }], status: 'RESOURCE_EXHAUSTED' } }, 429, { 'retry-after': '60' });
}
