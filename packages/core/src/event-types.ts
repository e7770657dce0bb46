/**
 * The event catalogue, kept free of zod so the dashboard can import it at run time
 * (the package's `./event-types` subpath); schemas/events.ts builds its schemas on it.
 */

/** Every event the daemon emits (docs/events.md). Payloads are versioned by `version` in the envelope. */
export const EVENT_TYPES = Object.freeze([
  'post.accepted',
  'post.pending_approval',
  'post.approved',
  'post.rejected',
  'post.changes_requested',
  'post.retimed',
  'post.cancelled',
  'post.finished',
  'post.metrics_updated',
  'target.publishing',
  'target.published',
  'target.retrying',
  'target.failed',
  'target.needs_review',
  'target.removed',
  'media.task_completed',
  'media.task_failed',
  'connection.expired',
  'connection.refresh_failed',
  'connection.expiring_soon',
  'webhook.endpoint_disabled',
  'comment.received',
  'comment.replied',
  'comment.reply_pending_approval',
  'comment.reply_approved',
  'comment.reply_rejected',
] as const);
export type EventType = (typeof EVENT_TYPES)[number];
