import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { createTwitterSimulator, X_HOST } from './simulator';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';

/** The X simulator as the daemon serves it for sandbox connections (`/sandbox/api.x.com/...`); video processing takes 2 s. */
export function twitterSandbox(deps: SandboxDeps): Simulator {
  const sim = createTwitterSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.db), onRemove: sandboxPostRemoval(deps.db), processingMs: 2_000, state: simState(deps.db, 'x') });
  const app = new Hono();
  app.route(`/${X_HOST}`, sim.app);
  return { hosts: [X_HOST], app };
}
