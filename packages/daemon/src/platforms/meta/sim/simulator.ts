import { Hono, type Context } from 'hono';
import type { SandboxStore } from '../../../store/sandbox-store';
import type { Clock } from '../../../util/clock';
import { facebookRoutes } from '../../facebook/sim/simulator';
import { instagramRoutes } from '../../instagram/sim/simulator';
import { threadsRoutes } from '../../threads/sim/simulator';
import { dropConnection } from '../../shared/drop-connection';
import { KEPT_REQUESTS, keepLatest } from '../../shared/sim/simulator-recorder';
import { GraphFail, MetaSimState, readSimRequest, recordOf, type MetaSimConfig, type SimRoutes } from './core';
import { commentRoutes } from './comments';
import { deletionRoutes } from './deletion';
import { insightsRoutes } from './insights';
import { oauthRoutes } from './oauth';

/** Which route sets answer on which host (the first that recognises a path wins). */
const HOSTS: Record<string, SimRoutes[]> = {
  'graph.facebook.com': [oauthRoutes, commentRoutes, deletionRoutes, insightsRoutes, instagramRoutes, facebookRoutes],
  'graph-video.facebook.com': [facebookRoutes],
  'rupload.facebook.com': [facebookRoutes],
  'graph.instagram.com': [oauthRoutes, commentRoutes, deletionRoutes, insightsRoutes, instagramRoutes],
  'api.instagram.com': [oauthRoutes],
  'graph.threads.net': [oauthRoutes, commentRoutes, deletionRoutes, insightsRoutes, threadsRoutes],
  'graph.threads.com': [oauthRoutes, commentRoutes, deletionRoutes, insightsRoutes, threadsRoutes],
};

export const META_SIMULATOR_HOSTS = Object.keys(HOSTS);

export interface MetaSimulatorOptions {
  clock: Clock;
  /** The simulators' store: state and sandbox_posts (so `socialpub sandbox posts` survives restarts). */
  store?: SandboxStore | null;
  config?: Partial<MetaSimConfig>;
}

/**
 * The Instagram, Facebook and Threads simulators as one Hono app serving
 * `/<host>/<path>` for each Meta host, over one shared state.
 */
export class MetaSimulator {
  readonly state: MetaSimState;
  readonly app: Hono;

  constructor(options: MetaSimulatorOptions) {
    this.state = new MetaSimState(options.clock, options.store ?? null, options.config);
    this.app = new Hono();
    for (const [host, routes] of Object.entries(HOSTS)) {
      const handler = (c: Context) => this.#handle(c, host, routes);
      this.app.all(`/${host}`, handler);
      this.app.all(`/${host}/*`, handler);
    }
  }

  async #handle(c: Context, host: string, routes: SimRoutes[]): Promise<Response> {
    const sim = this.state;
    const req = await readSimRequest(c, host, sim.clock);
    const fault = sim.takeFault(req);
    if (fault?.latencyMs) await sim.clock.sleep(fault.latencyMs);
    let status = 200;
    let body: unknown;
    if (fault?.answer) {
      body = fault.answer;
    } else if (fault?.error) {
      status = fault.error.status;
      body = { error: { type: 'OAuthException', is_transient: false, fbtrace_id: `sim${sim.newId('')}`, ...fault.error.error } };
    } else {
      // The request's whole effect (a post, its container marked published, the quota, the
      // sandbox_posts row) is one transaction: a kill leaves all of it or none of it.
      const answered = sim.atomically(() => {
        try {
          for (const r of routes) {
            const found = r(req, sim);
            if (found instanceof Promise) throw new TypeError('Meta simulator routes must be synchronous: they run inside the request transaction');
            if (found !== undefined) return { status: 200, body: found };
          }
          return {
            status: 400,
            body: { error: { message: `Unsupported ${req.method.toLowerCase()} request. Unknown path components: ${req.path}`, type: 'GraphMethodException', code: 100, error_subcode: 33, fbtrace_id: `sim${sim.newId('')}` } },
          };
        } catch (err) {
          if (!(err instanceof GraphFail)) throw err;
          return { status: err.status, body: err.body as unknown };
        } finally {
          sim.flush();
        }
      });
      status = answered.status;
      body = answered.body;
    }
    keepLatest(sim.requests, recordOf(req, fault?.hangUpAfter || fault?.holdAfter ? 0 : status), KEPT_REQUESTS);
    if (fault?.holdAfter) {
      // The work is done; the answer never comes. Wait for the client to give up.
      await new Promise<void>((resolve) => {
        const signal = c.req.raw.signal;
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      dropConnection(c);
      return new Response(null, { status: 204 });
    }
    if (fault?.hangUpAfter) {
      // The work is done (the post exists) but the client never hears back, as after a timeout.
      if (dropConnection(c)) return new Response(null, { status: 204 });
      return new Response('upstream timed out', { status: 504 });
    }
    return c.json(body as object, status as 200);
  }
}
