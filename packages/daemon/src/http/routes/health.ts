import { TARGET_STATUSES, VERSION, formatInstant, type HealthResponse, type Routes } from '@socialpub/core';
import type { Context } from 'hono';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { reply, type RouteHandlers } from '../route-table/mount-route';

/** GET /healthz (and under the prefix): 200 when healthy, 503 when the scheduler has stalled (so a supervisor notices). */
export function healthHandlers(deps: RouteDeps): RouteHandlers<Routes, 'health' | 'health.versioned'> {
  const health = (_input: unknown, c: Context<AppEnv>) => {
    const now = deps.clock.now();
    const s = deps.scheduler.status();
    const counts = deps.store.jobs.countTargetsByStatus();
    const targets = Object.fromEntries(TARGET_STATUSES.map((st) => [st, counts[st] ?? 0])) as HealthResponse['targets'];
    const body: HealthResponse = {
      status: s.stalled ? 'unhealthy' : 'ok',
      version: VERSION,
      time: formatInstant(now),
      uptime_s: Math.max(0, Math.round((now - deps.startedAt) / 1000)),
      scheduler: { running: s.running, last_tick: s.lastTick === null ? null : formatInstant(s.lastTick), stalled: s.stalled, wheel_size: s.wheelSize },
      targets,
    };
    c.header('Cache-Control', 'no-store');
    return reply(s.stalled ? 503 : 200, body);
  };
  return { health, 'health.versioned': health };
}
