import { formatInstant, typesFor, type PlannedTarget, type PublishRequest, type PublishResult } from '@socialpub/core';
import type { NewJob, NewTarget } from '../store/jobs';
import type { User } from '../store/users';
import { newId } from '../util/ids';

/** A checked publish request as rows to store, and the answer that acknowledges it. */
export interface BuiltJob {
  job: NewJob;
  targets: NewTarget[];
  result: PublishResult;
}

/**
 * The job and its targets for a request that passed every check. Held for approval when the
 * request asks, or when the user's workflow says so — publish_now too.
 */
export function buildJob(user: User, request: PublishRequest, base: number | null, planned: readonly PlannedTarget[], now: number): BuiltJob {
  const held = request.require_approval === true || user.approvalWorkflow;
  const jobId = newId('job');
  const targets: NewTarget[] = planned.map((t) => ({
    id: newId('tgt'),
    platform: t.platform,
    type: t.type,
    scheduleKey: t.scheduleKey,
    dueAt: t.dueAt,
    status: held ? 'pending_approval' : 'scheduled',
  }));
  const publishNow = request.publish_now === true;
  const status = held ? 'pending_approval' : publishNow ? 'publishing' : 'scheduled';
  const names = request.platforms.join(', ');
  const result: PublishResult = {
    success: true,
    message: held
      ? `Waiting for approval before publishing to ${names}`
      : publishNow
        ? `Publishing to ${names} now`
        : `Scheduled for ${formatInstant(base as number)} on ${names}`,
    job_id: jobId,
    scheduled_for: base === null ? null : formatInstant(base),
    platforms: request.platforms,
    status,
    targets: targets.map((t) => ({ platform: t.platform, type: t.type, scheduled_for: formatInstant(t.dueAt), status: t.status })),
  };
  const job: NewJob = {
    id: jobId,
    userId: user.id,
    caption: request.caption,
    platforms: request.platforms,
    platformCaptions: request.platform_captions ?? {},
    platformTypes: Object.fromEntries(request.platforms.map((p) => [p, typesFor(p, request.platform_types)])),
    mediaUrls: request.media_urls ?? [],
    publishNow,
    scheduledFor: base,
    typeSchedule: request.type_schedule ?? {},
    requireApproval: request.require_approval === true,
    platformOptions: request.platform_options ?? {},
    sortAt: base ?? now,
    createdAt: now,
  };
  return { job, targets, result };
}
