import type { Routes } from '@socialpub/core';
import { parsePublishRequest } from '../../jobs/check-publish';
import type { RouteDeps } from '../deps';
import { ApiError } from '../errors';
import { readJsonObject } from '../json-body';
import { jobSourceOf } from '../job-source';
import type { RouteHandlers } from '../route-table/mount-route';

/**
 * POST /content/publish and POST /content/validate. Both read the body themselves: the
 * publish checks run in their own order with their own codes (jobs/check-publish.ts), and
 * validation answers a body that fails them with `valid: false` rather than a 400.
 */
export function contentHandlers(deps: RouteDeps): RouteHandlers<Routes, 'content.publish' | 'content.validate'> {
  const { store, jobs } = deps;
  return {
    'content.publish': {
      raw: true,
      handle: async (c) => {
        const source = jobSourceOf(c);
        const parsed = parsePublishRequest(await readJsonObject(c));
        if (!parsed.ok) throw new ApiError(parsed.code, parsed.message, parsed.details);
        const user = c.get('user');
        const idem = c.get('idempotency');
        const result = await jobs.publish(user, parsed.request, {
          source,
          // An agent key writes, a person publishes (docs/api.md "Key scopes").
          holdForApproval: c.get('scope') === 'agent',
          // The idempotency record commits with the job: a retry finds either both or neither.
          alsoCommit: (answer, now) => {
            if (!idem) return;
            // Another daemon over the same database took this key between our look-up and now: this
            // transaction (the job with it) rolls back, and the client's retry gets that daemon's answer.
            if (!store.idempotency.save(user.id, idem.route, idem.key, { bodyHash: idem.bodyHash, status: 200, response: JSON.stringify(answer), createdAt: now })) {
              throw new ApiError('idempotency_conflict', 'a request with this Idempotency-Key was being processed at the same time; retry it to get its answer');
            }
            idem.saved = true;
          },
        });
        c.get('log').info('job created', { job_id: result.job_id, user_id: user.id, status: result.status, targets: result.targets.length });
        return result;
      },
    },
    'content.validate': { raw: true, handle: async (c) => jobs.validate(c.get('user'), await readJsonObject(c)) },
  };
}
