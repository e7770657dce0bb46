import {
  PLATFORMS,
  QueueNextQuerySchema,
  QueueUpdateSchema,
  canonicalZone,
  formatInstant,
  isPlatform,
  wallTimeOf,
  type Platform,
  type Queue,
  type QueueNextResponse,
  type QueueResponse,
} from '@socialpub/core';
import { Hono } from 'hono';
import { nextFreeSlots } from '../../jobs/queue-slots';
import { userZone } from '../../jobs/user-zone';
import type { QueueRecord } from '../../store/queues';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { rateClass } from '../middleware/rate-limit';

const present = (q: QueueRecord): Queue => ({
  timezone: q.timezone,
  capacity: q.capacity,
  slots: q.slots.map((s) => ({ day: s.day, time: s.time, ...(s.platforms ? { platforms: [...s.platforms] } : {}), ...(s.capacity ? { capacity: s.capacity } : {}) })),
});

/** GET and PUT /queue (the caller's weekly posting slots) and GET /queue/next (the next free ones). */
export function queueRoutes(deps: RouteDeps) {
  const { store, clock } = deps;
  const current = (userId: string): QueueRecord =>
    store.queues.get(userId) ?? { timezone: userZone(store, userId) ?? 'UTC', capacity: 1, slots: [], updatedAt: 0 };

  return new Hono<AppEnv>()
    .get('/', rateClass('queue'), (c) => {
      const body: QueueResponse = { success: true, queue: present(current(c.get('user').id)) };
      return c.json(body, 200);
    })
    .put('/', rateClass('queue'), async (c) => {
      const parsed = QueueUpdateSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const q = parsed.data;
      const user = c.get('user');
      const record = {
        timezone: (q.timezone != null ? canonicalZone(q.timezone) : null) ?? userZone(store, user.id) ?? 'UTC',
        capacity: q.capacity ?? 1,
        slots: q.slots.map((s) => ({ day: s.day, time: s.time, ...(s.platforms ? { platforms: [...new Set(s.platforms)] } : {}), ...(s.capacity ? { capacity: s.capacity } : {}) })),
      };
      await store.commits.durable(() => store.queues.replace(user.id, record, clock.now()));
      const body: QueueResponse = { success: true, queue: present(current(user.id)) };
      return c.json(body, 200);
    })
    .get('/next', rateClass('queue'), (c) => {
      const parsed = QueueNextQuerySchema.safeParse(c.req.query());
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      let platforms: Platform[] | null = null;
      if (parsed.data.platforms !== undefined) {
        const names = parsed.data.platforms.split(',').map((p) => p.trim()).filter(Boolean);
        const unknown = names.filter((p) => !isPlatform(p));
        if (unknown.length > 0 || names.length === 0) {
          throw invalid([{ path: 'platforms', message: `must be a comma-separated list of ${PLATFORMS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}` }]);
        }
        platforms = names as Platform[];
      }
      const queue = current(c.get('user').id);
      const slots = nextFreeSlots(store, c.get('user').id, queue, platforms, clock.now(), parsed.data.count);
      const body: QueueNextResponse = {
        success: true,
        slots: slots.map((s) => ({
          scheduled_for: formatInstant(s.at),
          scheduled_local: wallTimeOf(s.at, queue.timezone),
          timezone: queue.timezone,
          slot: s.key,
          free: s.free,
        })),
      };
      return c.json(body, 200);
    });
}
