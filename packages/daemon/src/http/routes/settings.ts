import { SettingsUpdateSchema, canonicalZone, type SettingsResponse } from '@socialpub/core';
import { Hono } from 'hono';
import { setUserZone, userZone } from '../../jobs/user-zone';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { rateClass } from '../middleware/rate-limit';

/**
 * GET and PATCH /settings: the caller's settings. Only `timezone` changes here; the approval
 * workflow is shown but changed with the CLI on the data dir, so an agent holding a key
 * cannot switch off the approval meant to hold its own posts.
 */
export function settingsRoutes(deps: RouteDeps) {
  const { store } = deps;
  const answer = (userId: string, approval: boolean): SettingsResponse => ({
    success: true,
    settings: { timezone: userZone(store, userId), approval_workflow: approval },
  });
  return new Hono<AppEnv>()
    .get('/', rateClass('settings'), (c) => {
      const user = c.get('user');
      return c.json(answer(user.id, user.approvalWorkflow), 200);
    })
    .patch('/', rateClass('settings'), async (c) => {
      const parsed = SettingsUpdateSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const user = c.get('user');
      const zone = parsed.data.timezone === null ? null : canonicalZone(parsed.data.timezone);
      await store.commits.durable(() => setUserZone(store, user.id, zone));
      return c.json(answer(user.id, user.approvalWorkflow), 200);
    });
}
