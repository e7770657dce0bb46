import { deriveJobStatus, firstCommentFor, formatInstant, threadFor, wallTimeOf, type PostStep, type PostReplies, type Post, type Target } from '@socialpub/core';
import { NO_TIMES, type PostTimes } from '../store/job-times';
import type { PostRecord, TargetRecord } from '../store/jobs';
import type { Rejection } from '../store/rejections';
import { NO_HOLDS, targetHold, type HoldLookup } from './target-hold';
import { NO_REVIEW, presentApproval, presentComment, type PostReview } from './present-review';

/**
 * A target as the API shows it. `thread_posts` and `comment` appear only on a target whose
 * job asked for a thread or first comment on it, so other posts look exactly as before.
 */
export function presentTarget(t: TargetRecord, zone = 'UTC', asked: PostReplies = {}, holds: HoldLookup = NO_HOLDS): Target {
  const held = targetHold(t, holds);
  const out: Target = {
    target_id: t.id,
    platform: t.platform,
    label: t.label,
    connection_id: t.connectionId,
    type: t.type,
    scheduled_for: formatInstant(t.dueAt),
    status: t.status,
    attempts: t.attempts,
    post_id: t.postId,
    post_url: t.postUrl,
    published_at: t.publishedAt === null ? null : formatInstant(t.publishedAt),
    error: t.errorCode ? { code: t.errorCode, message: t.errorMessage ?? '', platform_code: t.platformCode } : null,
    next_attempt_at: held === null ? null : formatInstant(held.at),
    hold: held === null ? null : held.hold,
    scheduled_local: wallTimeOf(t.dueAt, zone),
    removed_at: t.removedAt === null ? null : formatInstant(t.removedAt),
    removal: t.removal === null ? null : { state: t.removal.state, code: t.removal.code, message: t.removal.message, at: formatInstant(t.removal.at) },
  };
  if (t.postSteps) {
    // follow_ups: the deprecated alias of post_steps, the same value (docs/api.md).
    out.post_steps = presentPostSteps(t.postSteps);
    out.follow_ups = out.post_steps;
  }
  if (threadFor(asked, t.platform).length > 0) out.thread_posts = t.replies.thread ?? [];
  if (firstCommentFor(asked, t.platform, t.type) !== null) out.comment = t.replies.comment ?? null;
  return out;
}

function presentPostSteps(steps: NonNullable<TargetRecord['postSteps']>): Record<string, PostStep> {
  return Object.fromEntries(
    Object.entries(steps).map(([name, s]) => [
      name,
      { status: s.status === 'requested' ? 'unknown' : s.status, ...(s.id !== undefined ? { id: s.id } : {}), ...(s.error !== undefined ? { error: s.error } : {}) },
    ]),
  );
}

/** A job as the API shows it; the status is derived from its targets, local times from its zone. */
export function presentPost(job: PostRecord, times: PostTimes = NO_TIMES, rejection: Rejection | null = null, holds: HoldLookup = NO_HOLDS, review: PostReview = NO_REVIEW): Post {
  const zone = times.timezone ?? 'UTC';
  return {
    job_id: job.id,
    status: deriveJobStatus(job.targets.map((t) => t.status)),
    caption: job.caption,
    platforms: job.platforms,
    platform_captions: job.platformCaptions,
    platform_types: job.platformTypes,
    media_urls: job.mediaUrls,
    scheduled_for: job.scheduledFor === null ? null : formatInstant(job.scheduledFor),
    type_schedule: job.typeSchedule,
    require_approval: job.requireApproval,
    platform_options: job.platformOptions,
    ...(job.replies.thread ? { thread: job.replies.thread } : {}),
    ...(job.replies.first_comment ? { first_comment: job.replies.first_comment } : {}),
    source: job.source,
    created_at: formatInstant(job.createdAt),
    updated_at: formatInstant(job.updatedAt),
    version: job.version,
    targets: job.targets.map((t) => presentTarget(t, zone, job.replies, holds)),
    timezone: zone,
    scheduled_local: job.scheduledFor === null ? null : (times.scheduledLocal ?? wallTimeOf(job.scheduledFor, zone)),
    queue_slot: times.queueSlot,
    series_id: times.seriesId,
    occurrence: times.occurrence,
    ...(rejection
      ? {
          rejection: {
            reason: rejection.reason,
            at: formatInstant(rejection.rejectedAt),
            source: rejection.source,
            ...(rejection.reviewLinkId ? { review_link_id: rejection.reviewLinkId } : {}),
          },
        }
      : {}),
    approvals: review.approvals.map(presentApproval),
    comments: review.comments.map(presentComment),
  };
}
