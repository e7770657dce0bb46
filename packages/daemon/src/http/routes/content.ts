import { formatInstant, typesFor, type PublishResult, type ValidateResult } from '@socialpub/core';
import { Hono } from 'hono';
import type { NewTarget } from '../../store/jobs';
import { newId } from '../../util/ids';
import { checkPublish } from '../check-publish';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readJsonObject } from '../json-body';
import { jobSourceOf } from '../job-source';
import { idempotency } from '../middleware/idempotency';

/** POST /content/publish and POST /content/validate. */
export function contentRoutes(deps: RouteDeps) {
  const { store, commits, clock, scheduler, config } = deps;
  const checkDeps = { store, mediaLookup: deps.mediaLookup, adapters: deps.adapters, publicBaseUrl: config.publicUrl };

  return new Hono<AppEnv>()
    .post('/publish', idempotency({ store, clock, route: 'content.publish' }), async (c) => {
      const body = await readJsonObject(c);
      const user = c.get('user');
      const source = jobSourceOf(c);
      const now = clock.now();
      const check = checkPublish(checkDeps, user, body, now);
      if (!check.ok) throw new ApiError(check.code, check.message, check.details);
      const req = check.request;

      // Held for approval when asked, or when the user's workflow says so — publish_now too;
      // and, with agent-approval on, every job an agent made through MCP.
      const heldForAgent = source === 'mcp' && user.agentApproval;
      const held = req.require_approval === true || user.approvalWorkflow || heldForAgent;
      const jobId = newId('job');
      const targets: NewTarget[] = check.targets.map((t) => ({
        id: newId('tgt'),
        platform: t.platform,
        type: t.type,
        scheduleKey: t.scheduleKey,
        dueAt: t.dueAt,
        status: held ? 'pending_approval' : 'scheduled',
      }));
      const publishNow = req.publish_now === true;
      const status = held ? 'pending_approval' : publishNow ? 'publishing' : 'scheduled';
      const names = req.platforms.join(', ');
      const result: PublishResult = {
        success: true,
        message: heldForAgent
          ? `Waiting for a person's approval (agent-approval is on) before publishing to ${names}: socialpub schedule approve ${jobId}`
          : held
          ? `Waiting for approval before publishing to ${names}`
          : publishNow
            ? `Publishing to ${names} now`
            : `Scheduled for ${formatInstant(check.base as number)} on ${names}`,
        job_id: jobId,
        scheduled_for: check.base === null ? null : formatInstant(check.base),
        platforms: req.platforms,
        status,
        targets: targets.map((t) => ({ platform: t.platform, type: t.type, scheduled_for: formatInstant(t.dueAt), status: t.status })),
      };

      const idem = c.get('idempotency');
      // One transaction, one fsync: the job, its targets and the idempotency record commit
      // together, and the answer waits until they are on disk (group-committed; see store/commits.ts).
      await commits.durable(() => {
        store.jobs.create(
          {
            id: jobId,
            userId: user.id,
            caption: req.caption,
            platforms: req.platforms,
            platformCaptions: req.platform_captions ?? {},
            platformTypes: Object.fromEntries(req.platforms.map((p) => [p, typesFor(p, req.platform_types)])),
            mediaUrls: req.media_urls ?? [],
            publishNow,
            scheduledFor: check.base,
            typeSchedule: req.type_schedule ?? {},
            requireApproval: req.require_approval === true,
            source,
            sortAt: check.base ?? now,
            createdAt: now,
          },
          targets,
        );
        if (idem) {
          store.idempotency.save(user.id, idem.route, idem.key, { bodyHash: idem.bodyHash, status: 200, response: JSON.stringify(result), createdAt: now });
          idem.saved = true;
        }
      });
      // Committed and durable: only now may the scheduler see the targets.
      scheduler.targetsChanged(targets.map((t) => t.id));
      c.get('log').info('job created', { job_id: jobId, user_id: user.id, status, targets: targets.length });
      return c.json(result, 200);
    })
    .post('/validate', async (c) => {
      const body = await readJsonObject(c);
      const check = checkPublish(checkDeps, c.get('user'), body, clock.now());
      const targets = check.targets.map((t) => ({ platform: t.platform, type: t.type, scheduled_for: formatInstant(t.dueAt) }));
      const result: ValidateResult = check.ok
        ? { success: true, valid: true, targets, errors: [] }
        : { success: true, valid: false, targets, errors: check.details.map((d) => ({ ...d, code: check.code })) };
      return c.json(result, 200);
    });
}
