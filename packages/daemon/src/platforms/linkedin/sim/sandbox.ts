import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createLinkedinSimulator, LINKEDIN_API_HOST, LINKEDIN_WWW_HOST } from './simulator';

/**
 * The LinkedIn simulator as the daemon serves it for sandbox connections
 * (`/sandbox/api.linkedin.com/...`, `/sandbox/www.linkedin.com/...`); its state lives in
 * sandbox_state, and a post's state and its sandbox_posts row commit in one transaction.
 */
export function linkedinSandbox(deps: SandboxDeps): Simulator {
  const store = deps.store;
  const sim = createLinkedinSimulator({
    clock: deps.clock,
    onPost: sandboxPostSink(store),
    onRemove: sandboxPostRemoval(store),
    state: simState(store, 'linkedin'),
    processingMs: 2_000,
  });
  const app = new Hono();
  app.route(`/${LINKEDIN_API_HOST}`, sim.api);
  app.route(`/${LINKEDIN_WWW_HOST}`, sim.www);
  return { hosts: [LINKEDIN_API_HOST, LINKEDIN_WWW_HOST], app };
}
