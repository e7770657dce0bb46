import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createPinterestSimulator, PINTEREST_API_HOST, PINTEREST_WWW_HOST } from './simulator';

/**
 * The Pinterest simulator as the daemon serves it for sandbox connections
 * (`/sandbox/api.pinterest.com/...`, `/sandbox/www.pinterest.com/...`); its state lives in
 * sandbox_state, and a pin's state and its sandbox_posts row commit in one transaction.
 */
export function pinterestSandbox(deps: SandboxDeps): Simulator {
  const store = deps.store;
  const sim = createPinterestSimulator({
    clock: deps.clock,
    onPost: sandboxPostSink(store),
    onRemove: sandboxPostRemoval(store),
    state: simState(store, 'pinterest'),
    processingMs: 2_000,
  });
  const app = new Hono();
  app.route(`/${PINTEREST_API_HOST}`, sim.api);
  app.route(`/${PINTEREST_WWW_HOST}`, sim.www);
  return { hosts: [PINTEREST_API_HOST, PINTEREST_WWW_HOST], app };
}
