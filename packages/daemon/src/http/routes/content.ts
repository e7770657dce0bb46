import { Hono } from 'hono';
import { parsePublishRequest } from '../../jobs/check-publish';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readJsonObject } from '../json-body';
import { jobSourceOf } from '../job-source';
import { idempotency } from '../middleware/idempotency';
import { rateClass } from '../middleware/rate-limit';

/** POST /content/publish and POST /content/validate. */
export function contentRoutes(deps: RouteDeps) {
  const { store, clock, jobs } = deps;

  return new Hono<AppEnv>()
    .post('/publish', rateClass('publish'), idempotency({ store, clock, route: 'content.publish' }), async (c) => {
      const source = jobSourceOf(c);
      const parsed = parsePublishRequest(await readJsonObject(c));
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.message, parsed.details);
      const user = c.get('user');
      const idem = c.get('idempotency');
      const result = await jobs.publish(user, parsed.request, {
        source,
        // The idempotency record commits with the job: a retry finds either both or neither.
        alsoCommit: (answer, now) => {
          if (!idem) return;
          store.idempotency.save(user.id, idem.route, idem.key, { bodyHash: idem.bodyHash, status: 200, response: JSON.stringify(answer), createdAt: now });
          idem.saved = true;
        },
      });
      c.get('log').info('job created', { job_id: result.job_id, user_id: user.id, status: result.status, targets: result.targets.length });
      return c.json(result, 200);
    })
    .post('/validate', rateClass('validate'), async (c) => c.json(await deps.jobs.validate(c.get('user'), await readJsonObject(c)), 200));
}
