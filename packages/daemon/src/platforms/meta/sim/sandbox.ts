import type { Context } from 'hono';
import type { SandboxDeps, Simulator } from '../../platform-module';
import { META_SIMULATOR_HOSTS, MetaSimulator } from './simulator';

/**
 * The one Meta simulator (graph.facebook.com, graph.instagram.com, graph.threads.net) as
 * the daemon serves it for Instagram, Facebook and Threads sandbox connections. A dry run
 * should not make the user wait: images are ready at once, videos after 15 s (tests use the
 * simulator's own, slower defaults to exercise IN_PROGRESS).
 */
export function metaSandbox(deps: SandboxDeps): Simulator {
  const sim = new MetaSimulator({ clock: deps.clock, store: deps.store, config: { imageProcessingMs: 0, videoProcessingMs: 15_000 } });
  return { hosts: META_SIMULATOR_HOSTS, app: sim.app, rateLimited };
}

/**
 * Graph's throttle: error code 4 ("Application request limit reached", transient) with the
 * usage headers Meta sends (`X-App-Usage`, `X-Business-Use-Case-Usage` at 100%), as a 429.
 */
function rateLimited(c: Context, now: number): Response {
  const full = { call_count: 100, total_cputime: 100, total_time: 100 };
  return c.json(
    { error: { message: '(#4) Application request limit reached', type: 'OAuthException', is_transient: true, code: 4, fbtrace_id: `Sim${now.toString(36)}` } },
    429,
    {
      'x-app-usage': JSON.stringify(full),
      'x-business-use-case-usage': JSON.stringify({ sandbox: [{ type: 'pages', ...full, estimated_time_to_regain_access: 60 }] }),
    },
  );
}
