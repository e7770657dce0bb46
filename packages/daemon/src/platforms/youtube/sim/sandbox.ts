import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createYoutubeSimulator } from './simulator';

/** The YouTube and Google OAuth simulators as the daemon serves them (`/sandbox/www.googleapis.com/...`). */
export function youtubeSandbox(deps: SandboxDeps): Simulator {
  const sim = createYoutubeSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.db), onRemove: sandboxPostRemoval(deps.db), state: simState(deps.db, 'youtube') });
  const app = new Hono();
  for (const { host, app: hostApp } of sim.apps) app.route(`/${host}`, hostApp);
  return { hosts: sim.apps.map((a) => a.host), app };
}
