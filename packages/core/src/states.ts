/** Target and post states: one frozen list each, shared by the SQL CHECK constraints and the types. */
export const TARGET_STATUSES = Object.freeze([
  'pending_approval',
  'scheduled',
  'publishing',
  'published',
  'failed',
  'cancelled',
  'needs_review',
  'removed',
  // A reviewer asked for changes (issue 38): held like pending_approval until an edit sends it back to review.
  'changes_requested',
] as const);
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** A post's status. Named JobStatus after the interface's job_id: the SDK exports it under this name (docs/api.md#names-and-deprecated-aliases). */
export const JOB_STATUSES = Object.freeze([
  'pending_approval',
  'scheduled',
  'publishing',
  'published',
  'partially_published',
  'failed',
  'cancelled',
  'needs_review',
  'removed',
  'changes_requested',
] as const);
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The header a client names itself with (`mcp`, `cli`); requests without it are `api`. */
export const SOURCE_HEADER = 'X-SocialPub-Source';

/** How a post was created: declared by the client (X-SocialPub-Source), `api` when it says nothing. */
export const POST_SOURCES = Object.freeze(['api', 'mcp', 'cli'] as const);
export type PostSource = (typeof POST_SOURCES)[number];

/**
 * Where a review decision or a comment came from (a post's `approvals` and `comments`):
 * the dashboard (its session), a key's request (api, cli, mcp, as X-SocialPub-Source
 * says) or a review link.
 */
export const REVIEW_SOURCES = Object.freeze(['dashboard', 'api', 'cli', 'mcp', 'review_link'] as const);
export type ReviewSource = (typeof REVIEW_SOURCES)[number];

/** The decisions a post's approval history records. */
export const REVIEW_ACTIONS = Object.freeze(['approved', 'rejected', 'changes_requested'] as const);
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** Targets that have not started: they can still be re-timed, cancelled, approved. */
export const NOT_STARTED: readonly TargetStatus[] = Object.freeze(['pending_approval', 'changes_requested', 'scheduled']);
/** Targets held for a person (never due: the scheduler publishes only `scheduled`): approve and reject act on them. */
export const AWAITING_REVIEW: readonly TargetStatus[] = Object.freeze(['pending_approval', 'changes_requested']);
/** Targets that will not change again by themselves. */
export const TERMINAL: readonly TargetStatus[] = Object.freeze(['published', 'failed', 'cancelled', 'needs_review', 'removed']);

/**
 * A post's status, derived from its targets (never stored, so it cannot drift):
 * anything still waiting for approval wins, then anything waiting for the changes a
 * reviewer asked for, then anything in flight or queued, then
 * needs_review (a person must look), then the settled mix: all published, some still
 * published (`partially_published`, also when others were taken down), nothing published
 * any more but something taken down (`removed`), failed, cancelled.
 */
export function deriveJobStatus(statuses: readonly TargetStatus[]): JobStatus {
  if (statuses.length === 0) return 'cancelled';
  const has = (s: TargetStatus) => statuses.includes(s);
  if (has('pending_approval')) return 'pending_approval';
  if (has('changes_requested')) return 'changes_requested';
  if (has('publishing')) return 'publishing';
  if (has('scheduled')) return 'scheduled';
  if (has('needs_review')) return 'needs_review';
  const published = statuses.filter((s) => s === 'published').length;
  if (published === statuses.length) return 'published';
  if (published > 0) return 'partially_published';
  if (has('removed')) return 'removed';
  if (has('failed')) return 'failed';
  return 'cancelled';
}

/** An inbox item's status (docs/api.md "Inbox"): one list for the SQL CHECK and the type. */
export const INBOX_STATUSES = Object.freeze(['unread', 'read', 'replied', 'hidden'] as const);
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/**
 * A reply's state: held for a person's approval, queued for the sender, being sent (the
 * request may be out: a restart reads it back before sending again), sent, failed (the
 * network refused it), rejected (a person declined it).
 */
export const INBOX_REPLY_STATES = Object.freeze(['pending_approval', 'queued', 'sending', 'sent', 'failed', 'rejected'] as const);
export type InboxReplyState = (typeof INBOX_REPLY_STATES)[number];
