import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { createMastodonSimulator, MASTODON_HOST } from './simulator';

/** The Mastodon simulator as the daemon serves it for sandbox connections (`/sandbox/mastodon.social/...`); video processing takes 2 s. */
export function mastodonSandbox(deps: SandboxDeps): Simulator {
  const store = deps.store;
  const sim = createMastodonSimulator({
    clock: deps.clock,
    onPost: sandboxPostSink(store),
    onRemove: sandboxPostRemoval(store),
    processingMs: 2_000,
    state: simState(store, 'mastodon'),
    ...(store ? { transaction: <T>(fn: () => T): T => store.transaction(fn) } : {}),
  });
  const app = new Hono();
  app.route(`/${MASTODON_HOST}`, sim.app);
  return { hosts: [MASTODON_HOST], app };
}
