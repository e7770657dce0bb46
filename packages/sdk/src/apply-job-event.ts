import { deriveJobStatus, type Post, type SocialpubEvent, type Target, type TargetStatus } from '@socialpub/core';

type Patch = Partial<Target>;

/** Where an event says a change happened: its target's id, and the platform and type events carried before targets had ids in posts. */
type At = { target_id?: string; platform: string; type: string };

/**
 * The target of the post an event names: by its id (a job may have two targets of one
 * platform and type, on two accounts of the network); by platform and type only when
 * the post's targets carry no id (a daemon from before target ids).
 */
const sameTarget = (t: Target, e: At) => (t.target_id !== undefined && e.target_id !== undefined ? t.target_id === e.target_id : t.platform === e.platform && t.type === e.type);

/** The post with the targets `match` picks changed by `patch`, its status derived again. */
function patched(post: Post, changes: readonly { at: At; patch: Patch }[]): Post {
  if (changes.length === 0) return post;
  const targets = post.targets.map((t) => {
    const change = changes.find((c) => sameTarget(t, c.at));
    return change ? { ...t, ...change.patch } : t;
  });
  return { ...post, targets, status: deriveJobStatus(targets.map((t) => t.status)) };
}

const NOT_HELD: Patch = { next_attempt_at: null, hold: null };

/**
 * The post as one of its events leaves it, without asking the daemon: the waits follow the
 * event stream (`scheduled.waitUntilDone`), reading the post once at the start and once at
 * the end, and show what happened in between from the events themselves. Events of other
 * jobs, or of kinds that change nothing a wait shows, leave it as it is.
 */
export function applyJobEvent(post: Post, event: SocialpubEvent): Post {
  if (event.job_id !== post.job_id) return post;
  switch (event.type) {
    case 'post.approved':
    case 'post.rejected':
    case 'post.changes_requested':
    case 'post.retimed':
    case 'post.cancelled':
    case 'post.pending_approval':
      return patched(
        post,
        event.data.targets.map((t) => ({ at: t, patch: { status: t.status as TargetStatus, scheduled_for: t.scheduled_for, ...NOT_HELD } })),
      );
    case 'post.finished':
      return patched(
        post,
        event.data.targets.map((t) => ({ at: t, patch: { status: t.status as TargetStatus, post_id: t.post_id, post_url: t.post_url, ...NOT_HELD } })),
      );
    case 'target.publishing':
      return patched(post, [{ at: event.data, patch: { status: 'publishing', attempts: event.data.attempt, ...NOT_HELD } }]);
    case 'target.published': {
      const d = event.data;
      return patched(post, [
        { at: d, patch: { status: 'published', attempts: d.attempt, post_id: d.post_id, post_url: d.post_url, published_at: d.published_at, error: null, ...NOT_HELD } },
      ]);
    }
    case 'target.retrying': {
      const d = event.data;
      const error = d.error.code === null ? null : { code: d.error.code, message: d.error.message ?? '', platform_code: d.error.platform_code };
      const reason = d.reason ?? 'retry';
      return patched(post, [
        {
          at: d,
          patch: {
            status: 'scheduled',
            attempts: d.attempt,
            error,
            next_attempt_at: d.next_attempt_at,
            hold: { reason, message: d.error.message ?? 'the last attempt failed', platform_code: d.error.platform_code, applies_to: null },
          },
        },
      ]);
    }
    case 'target.failed':
    case 'target.needs_review': {
      const d = event.data;
      const status = event.type === 'target.failed' ? 'failed' : 'needs_review';
      return patched(post, [{ at: d, patch: { status, attempts: d.attempt, error: { code: d.error.code, message: d.error.message, platform_code: d.error.platform_code }, ...NOT_HELD } }]);
    }
    case 'target.removed':
      return patched(post, [{ at: event.data, patch: { status: 'removed', removed_at: event.data.removed_at } }]);
    default:
      return post;
  }
}
