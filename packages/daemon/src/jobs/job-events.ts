import type { Platform, TargetStatus } from '@socialpub/core';
import type { PostRecord } from '../store/jobs';
import type { NewEvent } from '../store/events';
import type { StoredData } from '../store/outbox';
import type { BuiltPost } from './build-job';
import type { ReviewActor } from '../store/review-history';

// The post events the jobs service decides, written inside the transaction of the change
// (docs/events.md). Times are epoch ms here; the events module presents them as ISO. Each
// payload is checked against core's schema of its type (StoredData, schemas/event-data.ts).

// Each target names its account (connection and label): a job may have two targets of one
// platform and type, on two accounts.
type EventTargetSource = { id: string; platform: Platform; connectionId?: string | null; label: string | null; type: string; dueAt: number; status: TargetStatus };
const targetsOf = (targets: readonly EventTargetSource[]): StoredData<'post.accepted'>['targets'] =>
  targets.map((t) => ({ target_id: t.id, platform: t.platform, connection_id: t.connectionId ?? null, label: t.label, type: t.type, scheduled_for: t.dueAt, status: t.status }));

/** post.accepted, and post.pending_approval when the job is held. */
export function acceptedEvents(built: BuiltPost, now: number): NewEvent[] {
  const { job, targets, result } = built;
  const data: StoredData<'post.accepted'> = { job_id: job.id, status: result.status, publish_now: job.publishNow, scheduled_for: job.scheduledFor, platforms: job.platforms, targets: targetsOf(targets) };
  const base = { userId: job.userId, jobId: job.id, subject: job.id, at: now };
  const events: NewEvent[] = [{ ...base, type: 'post.accepted', data }];
  const held: StoredData<'post.pending_approval'> = { job_id: job.id, targets: data.targets };
  if (result.status === 'pending_approval') events.push({ ...base, type: 'post.pending_approval', data: held });
  return events;
}

/** post.approved / post.rejected / post.cancelled / post.retimed for the targets `ids` the change touched. */
export function jobChangeEvent(
  type: 'post.approved' | 'post.rejected' | 'post.cancelled' | 'post.retimed',
  job: PostRecord,
  ids: readonly string[],
  now: number,
  extra: Record<string, unknown> = {},
): NewEvent {
  const touched = new Set(ids);
  const data: StoredData<typeof type> = { job_id: job.id, target_ids: [...ids], targets: targetsOf(job.targets.filter((t) => touched.has(t.id))), ...extra };
  return {
    userId: job.userId,
    jobId: job.id,
    subject: job.id,
    type,
    at: now,
    data,
  };
}

/** post.pending_approval for an approved post an edit sent back to review: the targets `ids` held again, and the version to approve. */
export function heldAgainEvent(job: PostRecord, ids: readonly string[], now: number): NewEvent {
  const touched = new Set(ids);
  const data: StoredData<'post.pending_approval'> = { job_id: job.id, targets: targetsOf(job.targets.filter((t) => touched.has(t.id))), reason: 'edited', version: job.version };
  return { userId: job.userId, jobId: job.id, subject: job.id, type: 'post.pending_approval', at: now, data };
}

/** post.changes_requested: the targets `ids` wait for the changes `comment` asks for, on the job's current version. */
export function changesRequestedEvent(job: PostRecord, ids: readonly string[], now: number, ask: { comment: string; actor: ReviewActor }): NewEvent {
  const touched = new Set(ids);
  const { actor } = ask;
  const data: StoredData<'post.changes_requested'> = {
    job_id: job.id,
    target_ids: [...ids],
    targets: targetsOf(job.targets.filter((t) => touched.has(t.id))),
    comment: ask.comment,
    version: job.version,
    by: actor.by,
    source: actor.source,
    ...(actor.reviewLinkId ? { review_link_id: actor.reviewLinkId } : {}),
  };
  return { userId: job.userId, jobId: job.id, subject: job.id, type: 'post.changes_requested', at: now, data };
}
