import { formatInstant, parseAccountKey, typesFor, wallTimeOf, type PostSource, type PlannedAccountTarget, type PublishRequest, type PublishResult } from '@socialpub/core';
import type { ConnectionInfo } from '../store/connections';
import { NO_TIMES, type PostTimes } from '../store/job-times';
import type { NewPost, NewTarget } from '../store/jobs';
import type { User } from '../store/users';
import { newId } from '../util/ids';
import { heldForAgent, needsApproval } from './approval-rule';

/** A checked publish request as rows to store, and the answer that acknowledges it. */
export interface BuiltPost {
  job: NewPost;
  /** With the label of the account each is bound to (null: none), which its events name. */
  targets: (NewTarget & { label: string | null })[];
  result: PublishResult;
}

/** The content types a `platforms` entry asks for: its platform_types entry, else its network's default. */
function typesOfKey(key: string, platformTypes: PublishRequest['platform_types']): string[] {
  const ref = parseAccountKey(key);
  if (!ref) throw new Error(`${key} is not an account key (the schema checks platforms)`);
  const listed = platformTypes?.[key];
  return typesFor(ref.platform, listed ? { [ref.platform]: listed } : null);
}

/**
 * The job and its targets for a request that passed every check, each target bound to the
 * account (`accounts`, by `platforms` entry) it was checked against. Held for approval when the
 * request asks, or when the user's workflow says so — publish_now too; and, with
 * agent-approval on, every job an agent made through MCP (`source` mcp).
 */
export function buildJob(
  user: User,
  request: PublishRequest,
  base: number | null,
  planned: readonly PlannedAccountTarget[],
  now: number,
  accounts: ReadonlyMap<string, Pick<ConnectionInfo, 'id' | 'label'>>,
  times: PostTimes = NO_TIMES,
  source: PostSource = 'api',
): BuiltPost {
  const forAgent = heldForAgent(user, source);
  const held = needsApproval(user, request.require_approval === true, source);
  const jobId = newId('job');
  const targets: (NewTarget & { label: string | null })[] = planned.map((t) => ({
    id: newId('tgt'),
    platform: t.platform,
    connectionId: accounts.get(t.accountKey)?.id ?? null,
    accountKey: t.accountKey,
    label: accounts.get(t.accountKey)?.label ?? t.label,
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
    message: forAgent
      ? `Waiting for a person's approval (agent-approval is on) before publishing to ${names}: socialpub schedule approve ${jobId}`
      : held
      ? `Waiting for approval before publishing to ${names}`
      : publishNow
        ? `Publishing to ${names} now`
        : `Scheduled for ${formatInstant(base as number)} on ${names}`,
    job_id: jobId,
    scheduled_for: base === null ? null : formatInstant(base),
    platforms: request.platforms,
    status,
    targets: targets.map((t) => ({ platform: t.platform, label: t.label, connection_id: t.connectionId ?? null, type: t.type, scheduled_for: formatInstant(t.dueAt), status: t.status })),
    timezone: times.timezone ?? 'UTC',
    scheduled_local: base === null ? null : (times.scheduledLocal ?? wallTimeOf(base, times.timezone ?? 'UTC')),
    queue_slot: times.queueSlot,
    series_id: times.seriesId,
    warnings: [],
  };
  const job: NewPost = {
    id: jobId,
    userId: user.id,
    caption: request.caption,
    platforms: request.platforms,
    platformCaptions: request.platform_captions ?? {},
    platformTypes: Object.fromEntries(request.platforms.map((p) => [p, typesOfKey(p, request.platform_types)])),
    mediaUrls: request.media_urls ?? [],
    publishNow,
    scheduledFor: base,
    typeSchedule: request.type_schedule ?? {},
    requireApproval: request.require_approval === true,
    platformOptions: request.platform_options ?? {},
    replies: {
      ...(request.thread ? { thread: request.thread } : {}),
      ...(request.first_comment ? { first_comment: request.first_comment } : {}),
    },
    source,
    sortAt: base ?? now,
    createdAt: now,
  };
  return { job, targets, result };
}
