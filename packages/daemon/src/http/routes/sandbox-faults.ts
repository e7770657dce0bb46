import { SandboxFaultsPutSchema, type SandboxFaults, type SandboxFaultsResponse } from '@socialpub/core';
import { Hono } from 'hono';
import { readUserSandboxFaults, SANDBOX_FAULTS_KEY } from '../../platforms/sandbox/faults-store';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { rateClass } from '../middleware/rate-limit';

/**
 * GET, PUT and DELETE /sandbox/faults (an extension): the latency and faults the caller's
 * sandbox connections meet (docs/platforms/simulators.md, the rehearsal guide). PUT
 * replaces them; DELETE clears them. The simulators read them on every call, so the next
 * call meets the change. `global` shows what the daemon applies to everyone (environment,
 * config file), which only its operator changes.
 */
export function sandboxFaultsRoutes(deps: RouteDeps) {
  const { store } = deps;
  const answer = (faults: SandboxFaults): SandboxFaultsResponse => ({ success: true, faults, global: deps.config.sandboxFaults ?? {} });
  return new Hono<AppEnv>()
    .get('/', rateClass('sandbox'), (c) => c.json(answer(readUserSandboxFaults(store.settings, c.get('user').id)), 200))
    .put('/', rateClass('sandbox'), async (c) => {
      const parsed = SandboxFaultsPutSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const userId = c.get('user').id;
      const faults = parsed.data.faults;
      await store.commits.durable(() => (Object.keys(faults).length === 0 ? store.settings.delete(userId, SANDBOX_FAULTS_KEY) : store.settings.set(userId, SANDBOX_FAULTS_KEY, faults)));
      return c.json(answer(faults), 200);
    })
    .delete('/', rateClass('sandbox'), async (c) => {
      const userId = c.get('user').id;
      await store.commits.durable(() => store.settings.delete(userId, SANDBOX_FAULTS_KEY));
      return c.json(answer({}), 200);
    });
}
