import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { sandboxPasswordMatches } from '../../shared/sandbox-password';
import { sandboxPostRemoval, sandboxPostSink } from '../../shared/sim/sandbox-post-sink';
import { simState } from '../../shared/sim/sim-state';
import { BSKY_HOST, VIDEO_HOST } from '../pds-access';
import { createBlueskySimulator } from './simulator';

/**
 * The Bluesky simulator as the daemon serves it (`/sandbox/bsky.social/xrpc/...`,
 * `/sandbox/video.bsky.app/xrpc/...`, and each host at its own loopback origin); state in
 * SQLite, a record and its sandbox_posts row written in one transaction; videos take 2 s.
 * A sandbox connection's account signs in with that connection's sandbox password only.
 */
export function blueskySandbox(deps: SandboxDeps): Simulator {
  const store = deps.store;
  const sim = createBlueskySimulator({
    clock: deps.clock,
    onPost: sandboxPostSink(store),
    onRemove: sandboxPostRemoval(store),
    state: simState(store, 'bluesky'),
    processingMs: 2_000,
    // The connection of account key <key> is the one whose account id is sandbox_bluesky_<key> (saveSandboxConnection).
    sandboxPassword: (key, password) => sandboxPasswordMatches(store?.sandboxPasswordDigest(`sandbox_bluesky_${key}`), password),
    ...(store ? { atomically: (write: () => void) => store.transaction(write) } : {}),
  });
  const app = new Hono();
  app.route(`/${BSKY_HOST}`, sim.pds);
  app.route(`/${VIDEO_HOST}`, sim.video);
  return { hosts: [BSKY_HOST, VIDEO_HOST], app };
}
