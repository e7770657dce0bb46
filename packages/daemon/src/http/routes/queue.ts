import { PLATFORMS, canonicalZone, formatInstant, isPlatform, wallTimeOf, type Platform, type Queue, type QueueNextResponse, type QueueResponse, type Routes } from '@socialpub/core';
import { nextFreeSlots } from '../../jobs/queue-slots';
import { userZone } from '../../jobs/user-zone';
import type { QueueRecord } from '../../store/queues';
import type { RouteDeps } from '../deps';
import { invalid } from '../errors';
import type { RouteHandlers } from '../route-table/mount-route';

const present = (q: QueueRecord): Queue => ({
  timezone: q.timezone,
  capacity: q.capacity,
  slots: q.slots.map((s) => ({ day: s.day, time: s.time, ...(s.platforms ? { platforms: [...s.platforms] } : {}), ...(s.capacity ? { capacity: s.capacity } : {}) })),
});

/** GET and PUT /queue (the caller's weekly posting slots) and GET /queue/next (the next free ones); declared in core's route table. */
export function queueHandlers(deps: RouteDeps): RouteHandlers<Routes, 'queue.get' | 'queue.replace' | 'queue.next'> {
  const { store, clock } = deps;
  const current = (userId: string): QueueRecord =>
    store.queues.get(userId) ?? { timezone: userZone(store, userId) ?? 'UTC', capacity: 1, slots: [], updatedAt: 0 };

  return {
    'queue.get': (_input, c): QueueResponse => ({ success: true, queue: present(current(c.get('user').id)) }),
    'queue.replace': async ({ body: q }, c): Promise<QueueResponse> => {
      const user = c.get('user');
      const record = {
        timezone: (q.timezone != null ? canonicalZone(q.timezone) : null) ?? userZone(store, user.id) ?? 'UTC',
        capacity: q.capacity ?? 1,
        slots: q.slots.map((s) => ({ day: s.day, time: s.time, ...(s.platforms ? { platforms: [...new Set(s.platforms)] } : {}), ...(s.capacity ? { capacity: s.capacity } : {}) })),
      };
      await store.commits.durable(() => store.queues.replace(user.id, record, clock.now()));
      return { success: true, queue: present(current(user.id)) };
    },
    'queue.next': ({ query }, c): QueueNextResponse => {
      let platforms: Platform[] | null = null;
      if (query.platforms !== undefined) {
        const names = query.platforms.split(',').map((p) => p.trim()).filter(Boolean);
        const unknown = names.filter((p) => !isPlatform(p));
        if (unknown.length > 0 || names.length === 0) {
          throw invalid([{ path: 'platforms', message: `must be a comma-separated list of ${PLATFORMS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}` }]);
        }
        platforms = names as Platform[];
      }
      const queue = current(c.get('user').id);
      const slots = nextFreeSlots(store, c.get('user').id, queue, platforms, clock.now(), query.count);
      return {
        success: true,
        slots: slots.map((s) => ({
          scheduled_for: formatInstant(s.at),
          scheduled_local: wallTimeOf(s.at, queue.timezone),
          timezone: queue.timezone,
          slot: s.key,
          free: s.free,
        })),
      };
    },
  };
}
