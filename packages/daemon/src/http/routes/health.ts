import { TARGET_STATUSES, VERSION, formatInstant, type HealthResponse, type Routes } from '@socialpub/core';
import type { Context } from 'hono';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { reply, type RouteHandlers } from '../route-table/mount-route';
import { STALE_AFTER_MS } from '../../cluster/presence';

/**
 * GET /healthz (and under the prefix): 200 when healthy, 503 when the scheduler has stalled
 * or the database does not answer (so a supervisor or a load balancer notices).
 */
export function healthHandlers(deps: RouteDeps): RouteHandlers<Routes, 'health' | 'health.versioned'> {
  const health = (_input: unknown, c: Context<AppEnv>) => {
    const now = deps.clock.now();
    const s = deps.scheduler.status();
    let counts: Partial<Record<string, number>> = {};
    let daemons: NonNullable<HealthResponse['daemons']> = [];
    let database: NonNullable<HealthResponse['database']> = { kind: deps.store.dialect, ok: true };
    try {
      counts = deps.store.jobs.countTargetsByStatus();
      daemons = deps.store.daemons.live(now - STALE_AFTER_MS).map((d) => ({
        id: d.id,
        host: d.host,
        pid: d.pid,
        url: d.url,
        version: d.version,
        leader: d.leader,
        started_at: formatInstant(d.startedAt),
        heartbeat_at: formatInstant(d.heartbeatAt),
      }));
    } catch (error) {
      database = { kind: deps.store.dialect, ok: false, error: (error as Error).message };
    }
    const targets = Object.fromEntries(TARGET_STATUSES.map((st) => [st, counts[st] ?? 0])) as HealthResponse['targets'];
    const unhealthy = s.stalled || !database.ok;
    const body: HealthResponse = {
      status: unhealthy ? 'unhealthy' : 'ok',
      version: VERSION,
      time: formatInstant(now),
      uptime_s: Math.max(0, Math.round((now - deps.startedAt) / 1000)),
      scheduler: { running: s.running, last_tick: s.lastTick === null ? null : formatInstant(s.lastTick), stalled: s.stalled, wheel_size: s.wheelSize },
      targets,
      database,
      daemons,
    };
    c.header('Cache-Control', 'no-store');
    return reply(unhealthy ? 503 : 200, body);
  };
  return { health, 'health.versioned': health };
}
