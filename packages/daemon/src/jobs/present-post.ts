import { deriveJobStatus, formatInstant, type Post, type Target } from '@socialpub/core';
import type { JobRecord, TargetRecord } from '../store/jobs';

export function presentTarget(t: TargetRecord): Target {
  return {
    platform: t.platform,
    type: t.type,
    scheduled_for: formatInstant(t.dueAt),
    status: t.status,
    attempts: t.attempts,
    post_id: t.postId,
    post_url: t.postUrl,
    published_at: t.publishedAt === null ? null : formatInstant(t.publishedAt),
    error: t.errorCode ? { code: t.errorCode, message: t.errorMessage ?? '', platform_code: t.platformCode } : null,
  };
}

/** A job as the API shows it; the status is derived from its targets. */
export function presentPost(job: JobRecord): Post {
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
    created_at: formatInstant(job.createdAt),
    updated_at: formatInstant(job.updatedAt),
    targets: job.targets.map(presentTarget),
  };
}
