import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import { effectiveSandboxFault, type Platform, type SandboxFaultKind, type SandboxFaults, type SandboxFaultSpec } from '@socialpub/core';
import type { SandboxStore } from '../../store/sandbox-store';
import type { RootLogger } from '../../util/logger';
import { sandboxAccountKey } from '../shared/is-sandbox-token';
import { trackMade } from '../shared/sim/made-in-request';
import { sandboxCallerToken } from '../shared/sim/sandbox-caller';
import { readUserSandboxFaults } from './faults-store';

/** What the stage knows of one simulated host. */
export interface StagedHost {
  /** The platforms this host serves (graph.facebook.com: facebook and instagram). */
  platforms: readonly Platform[];
  /** The platform's own 429 (body and rate-limit headers); default: a bare 429 with Retry-After. */
  rateLimited?: ((c: Context, now: number) => Response) | undefined;
}

export interface FaultStageOptions {
  store: SandboxStore | null;
  /** The simulators' clock (rate-limit reset times). */
  now: () => number;
  /** host -> what it serves. */
  hosts: ReadonlyMap<string, StagedHost>;
  /** Faults for every user (environment, config file). */
  global: () => SandboxFaults;
  /** Default Math.random (tests fix it). */
  random?: () => number;
  /** Told of every fault applied (the daemon logs them; tests count them). */
  onFault?: (fault: AppliedFault) => void;
}

/** A fault a call met: its kind (or `latency` with the ms waited), the platform and the call. */
export interface AppliedFault {
  kind: SandboxFaultKind | 'latency';
  platform: Platform | null;
  method: string;
  path: string;
  userId: string | null;
  latencyMs?: number;
}

type Socket = { destroy(): void; resetAndDestroy?: () => void; destroyed?: boolean; once?(e: 'close', f: () => void): void };
type NodeEnv = { incoming?: { socket?: Socket } };

/**
 * How the daemon and `socialpub sandbox serve` log the faults they apply (`sandbox fault`,
 * with the kind, platform and call). A latency is at debug level: it is set to apply to
 * every call, and a line per call flooded the log (two lines a post) and cost the
 * simulators' process about a tenth of its CPU in a burst (bench/burst); the faults that
 * change an outcome (5xx, 429, timeout, reset, unanswered) stay at info, one line each.
 */
export function logSandboxFault(logger: Pick<RootLogger, 'info' | 'debug'>): (fault: AppliedFault) => void {
  return (f) => {
    const fields = { fault: f.kind, platform: f.platform, method: f.method, path: f.path, ...(f.latencyMs !== undefined ? { latency_ms: f.latencyMs } : {}) };
    if (f.kind === 'latency') logger.debug('sandbox fault', fields);
    else logger.info('sandbox fault', fields);
  };
}

/** The longest a `timeout` fault holds a call that its client never gives up on. */
const HOLD_MAX_MS = 10 * 60_000;

/**
 * The sandbox as a stage: before a simulator answers a call, the faults set for its
 * platform — for every user (SOCIALPUB_SANDBOX_*, config.json) and for the user whose
 * sandbox connection makes the call (PUT /sandbox/faults) — are applied: a latency drawn
 * from the range, then at most one of reset, timeout, 5xx, 429 by their shares; after it,
 * a call that made a post loses its answer by the `unanswered` share. The user is found
 * from the call's token: a sandbox connection's `sandbox_at_<key>.…` is the connection
 * whose account is `sandbox_<platform>_<key>`.
 */
export function faultStage(opts: FaultStageOptions): MiddlewareHandler {
  const random = opts.random ?? Math.random;
  const owners = new Map<string, { userId: string; platform: Platform } | null>();
  const ownerOf = (key: string, platforms: readonly Platform[]) => {
    const cacheKey = `${platforms.join('+')}:${key}`;
    if (owners.has(cacheKey)) return owners.get(cacheKey)!;
    let found: { userId: string; platform: Platform } | null = null;
    for (const p of platforms) {
      const row = opts.store?.ownerOf(`sandbox_${p}_${key}`);
      if (row) {
        found = row;
        break;
      }
    }
    // A key is a random part of one connection's token: who owns it never changes (a miss may, once connected).
    if (found) owners.set(cacheKey, found);
    return found;
  };

  return async function stage(c, next) {
    const segments = c.req.path.split('/', 4);
    const host = [segments[1], segments[2]].find((s) => s !== undefined && opts.hosts.has(s));
    const staged = host === undefined ? undefined : opts.hosts.get(host);
    if (!staged) return next();
    const global = opts.global();
    // Found once for the request by sandboxCaller (before the stage); read here only without it.
    const found = sandboxCallerToken();
    const token = found === undefined ? await tokenOf(c) : found;
    const key = token ? sandboxAccountKey(token) : null;
    const owner = key ? ownerOf(key, staged.platforms) : null;
    const platform = owner?.platform ?? (staged.platforms.length === 1 ? staged.platforms[0]! : null);
    const user = owner && opts.store ? readUserSandboxFaults(opts.store.settings, owner.userId) : {};
    const spec = effectiveSandboxFault(platform, global, user);
    if (isEmpty(spec)) return next();

    const told = (kind: AppliedFault['kind'], latencyMs?: number) =>
      opts.onFault?.({ kind, platform, method: c.req.method, path: c.req.path, userId: owner?.userId ?? null, ...(latencyMs !== undefined ? { latencyMs } : {}) });
    if (spec.latency_ms) {
      const { min, max } = spec.latency_ms;
      const ms = min + Math.floor(random() * (max - min + 1));
      told('latency', ms);
      await sleep(ms);
    }
    const r = random();
    let edge = 0;
    const hit = (kind: SandboxFaultKind) => {
      const share = spec[kind];
      if (!share || !(r < (edge += share))) return false;
      told(kind);
      return true;
    };
    if (hit('reset')) return reset(c);
    if (hit('timeout')) return hold(c);
    if (hit('server_error')) return serverError(c);
    if (hit('rate_limited')) return staged.rateLimited ? staged.rateLimited(c, opts.now()) : c.body(null, 429, { 'retry-after': '60' });
    if (!spec.unanswered) return next();
    const { madePost } = await trackMade(() => next());
    if (madePost && random() < spec.unanswered) {
      told('unanswered');
      return reset(c);
    }
  };
}

function isEmpty(spec: SandboxFaultSpec): boolean {
  return !spec.latency_ms && !spec.server_error && !spec.rate_limited && !spec.timeout && !spec.reset && !spec.unanswered;
}

/** The token a call carries: Bearer header, `access_token` in the query or in a form body (Threads). */
async function tokenOf(c: Context): Promise<string | null> {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (bearer) return bearer.trim();
  const inQuery = c.req.query('access_token');
  if (inQuery) return inQuery;
  if ((c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
    try {
      return new URLSearchParams(await c.req.text()).get('access_token');
    } catch {
      return null;
    }
  }
  return null;
}

/** The connection reset under the call (a TCP RST where Node can send one); the client gets no answer. */
function reset(c: Context): Response {
  const socket = (c.env as NodeEnv | undefined)?.incoming?.socket;
  if (socket && !socket.destroyed) {
    if (socket.resetAndDestroy) socket.resetAndDestroy();
    else socket.destroy();
  }
  // Served in-process (app.request): no socket to drop; a bare 502 stands for it.
  return new Response(null, { status: 502 });
}

/** No answer until the client gives up (or HOLD_MAX_MS), then the connection is dropped. */
async function hold(c: Context): Promise<Response> {
  const signal = c.req.raw.signal;
  await new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, HOLD_MAX_MS);
    timer.unref();
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  return reset(c);
}

/** A platform outage: 503 with a JSON error (every adapter reads a 5xx as "try again later"). */
function serverError(c: Context): Response {
  return c.json({ error: { code: 503, message: 'Service Unavailable (simulated by the sandbox)', status: 'UNAVAILABLE' } }, 503);
}
