import type { Routes, SandboxFaults, SandboxFaultsResponse } from '@socialpub/core';
import { readUserSandboxFaults, SANDBOX_FAULTS_KEY } from '../../platforms/sandbox/faults-store';
import type { RouteDeps } from '../deps';
import type { RouteHandlers } from '../route-table/mount-route';

/**
 * GET, PUT and DELETE /sandbox/faults (an extension): the latency and faults the caller's
 * sandbox connections meet (docs/platforms/simulators.md, the rehearsal guide). PUT
 * replaces them; DELETE clears them. The simulators read them on every call, so the next
 * call meets the change. `global` shows what the daemon applies to everyone (environment,
 * config file), which only its operator changes. Declared in core's route table.
 */
export function sandboxFaultsHandlers(deps: RouteDeps): RouteHandlers<Routes, 'sandbox.faults' | 'sandbox.setFaults' | 'sandbox.clearFaults'> {
  const { store } = deps;
  const answer = (faults: SandboxFaults): SandboxFaultsResponse => ({ success: true, faults, global: deps.config.sandboxFaults ?? {} });
  return {
    'sandbox.faults': (_input, c) => answer(readUserSandboxFaults(store.settings, c.get('user').id)),
    'sandbox.setFaults': async ({ body }, c) => {
      const userId = c.get('user').id;
      const faults = body.faults;
      await store.commits.durable(() => (Object.keys(faults).length === 0 ? store.settings.delete(userId, SANDBOX_FAULTS_KEY) : store.settings.set(userId, SANDBOX_FAULTS_KEY, faults)));
      return answer(faults);
    },
    'sandbox.clearFaults': async (_input, c) => {
      const userId = c.get('user').id;
      await store.commits.durable(() => store.settings.delete(userId, SANDBOX_FAULTS_KEY));
      return answer({});
    },
  };
}
