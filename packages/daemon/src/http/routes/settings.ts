import { canonicalZone, type Routes, type SettingsResponse } from '@socialpub/core';
import { setUserZone, userZone } from '../../jobs/user-zone';
import type { RouteDeps } from '../deps';
import type { RouteHandlers } from '../route-table/mount-route';

/**
 * GET and PATCH /settings (declared in core's route table): the caller's settings. Only
 * `timezone` changes here; the approval workflow is shown but changed with the CLI on the
 * data dir, so an agent holding a key cannot switch off the approval meant to hold its own posts.
 */
export function settingsHandlers(deps: RouteDeps): RouteHandlers<Routes, 'settings.get' | 'settings.update'> {
  const { store } = deps;
  const answer = (user: { id: string; approvalWorkflow: boolean; agentApproval: boolean }): SettingsResponse => ({
    success: true,
    settings: { timezone: userZone(store, user.id), approval_workflow: user.approvalWorkflow, agent_approval: user.agentApproval },
  });
  return {
    'settings.get': (_input, c) => answer(c.get('user')),
    'settings.update': async ({ body }, c) => {
      const user = c.get('user');
      const zone = body.timezone === null ? null : canonicalZone(body.timezone);
      await store.commits.durable(() => setUserZone(store, user.id, zone));
      return answer(user);
    },
  };
}
