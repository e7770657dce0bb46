import type { SandboxDeps, Simulator } from '../../platform-module';
import { META_SIMULATOR_HOSTS, MetaSimulator } from './simulator';

/**
 * The one Meta simulator (graph.facebook.com, graph.instagram.com, graph.threads.net) as
 * the daemon serves it for Instagram, Facebook and Threads sandbox connections. A dry run
 * should not make the user wait: images are ready at once, videos after 15 s (tests use the
 * simulator's own, slower defaults to exercise IN_PROGRESS).
 */
export function metaSandbox(deps: SandboxDeps): Simulator {
  const sim = new MetaSimulator({ clock: deps.clock, db: deps.db, config: { imageProcessingMs: 0, videoProcessingMs: 15_000 } });
  return { hosts: META_SIMULATOR_HOSTS, app: sim.app };
}
