import { z } from 'zod';
import { AccountKeySchema, InstantOut, PlatformId } from './common';
import { ThreadPostSchema } from './replies';
import { TargetStatusSchema } from './publish';
import { POST_SOURCES, REVIEW_SOURCES } from '../states';
import { NormalizedMetricsSchema, PlatformMetricsSchema } from './analytics';

/**
 * The `data` of each event type (docs/events.md, "Catalogue"), as webhooks, the SSE stream
 * and MCP notifications carry it. Times are ISO 8601 UTC instants. Each type's data is an
 * open object (`looseObject`: additionalProperties in the OpenAPI document): a version may
 * add fields (never remove or rename one), so a receiver ignores what it does not know, and
 * code written when `data` was a plain record (`event.data.job_id`) still compiles. Each
 * schema has an id, so the OpenAPI document names it as a component.
 */

const targetId = z.string().meta({ description: 'The target (tgt_…).' });
const jobId = z.string().meta({ description: 'The job (job_…).' });
const contentType = z.string().meta({ description: 'The content type of the target (tweet, feed, story, …).' });
/**
 * The account a target publishes through (issue 39: a network may have several, so
 * platform and type no longer name one target; target_id does). Optional: events stored
 * before they were added lack them.
 */
const accountFields = {
  connection_id: z.string().nullable().optional().meta({ description: 'The connection (account) the target publishes through (con_…; null: it was removed). Added with several accounts per network.' }),
  label: z.string().nullable().optional().meta({ description: "That account's label when the event was written (twitter:brand's brand; null: the connection was removed). Added with several accounts per network." }),
};

/** A target as the post events list it. */
export const EventTargetSchema = z
  .looseObject({ target_id: targetId, platform: PlatformId, ...accountFields, type: contentType, scheduled_for: InstantOut, status: TargetStatusSchema })
  .meta({ id: 'EventTarget', description: 'A target of the job as it is after the change.' });

/** A target as post.finished lists it. */
export const EventFinishedTargetSchema = z
  .looseObject({
    target_id: targetId,
    platform: PlatformId,
    ...accountFields,
    type: contentType,
    status: TargetStatusSchema,
    post_id: z.string().nullable(),
    post_url: z.string().nullable(),
  })
  .meta({ id: 'EventFinishedTarget' });

/** The error of a failed or unknown attempt. */
export const EventTargetErrorSchema = z
  .looseObject({ code: z.string(), message: z.string(), platform_code: z.string().nullable() })
  .meta({ id: 'EventTargetError', description: 'code is a target error code (docs/api.md); platform_code what the platform said, when it said something.' });

/** The error of an attempt that will be retried: null fields when the retry follows a check that found the post not published. */
export const EventRetryErrorSchema = z
  .looseObject({ code: z.string().nullable(), message: z.string().nullable(), platform_code: z.string().nullable() })
  .meta({ id: 'EventRetryError' });

const targetFields = {
  target_id: targetId,
  platform: PlatformId,
  ...accountFields,
  type: contentType,
  attempt: z.number().int().meta({ description: 'The attempt number (1 on the first).' }),
};
/** The first comment as stored on the target: `url` is left out while unknown (stored with json_patch, which drops nulls). */
export const EventCommentSchema = z
  .union([z.looseObject({ id: z.string(), url: z.string().nullable().optional() }), z.looseObject({ error: z.string() })])
  .meta({ id: 'EventComment', description: 'The first comment: {id, url} once posted (url absent when the platform gave none), or {error} when it could not be posted.' });

const followUpFields = {
  thread_posts: z.array(ThreadPostSchema).optional().meta({ description: 'The reply-chain parts already out (sent when the target has a thread).' }),
  comment: EventCommentSchema.optional().meta({ description: 'The first comment: {id, url} once posted, {error} when it could not be (sent when there is one).' }),
};

export const PostAcceptedDataSchema = z
  .looseObject({
    job_id: jobId,
    status: z.enum(['publishing', 'scheduled', 'pending_approval']),
    publish_now: z.boolean(),
    scheduled_for: InstantOut.nullable(),
    platforms: z.array(AccountKeySchema),
    targets: z.array(EventTargetSchema),
  })
  .meta({ id: 'PostAcceptedData', description: 'post.accepted: a publish request was stored.' });

export const PostPendingApprovalDataSchema = z
  .looseObject({
    job_id: jobId,
    targets: z.array(EventTargetSchema),
    reason: z.literal('edited').optional().meta({ description: 'Sent when an approved post, or one waiting for changes (changes_requested), went back to review because its caption or options were edited (then `targets` are those held again).' }),
    version: z.number().int().optional().meta({ description: 'The content version now waiting for approval (with reason).' }),
  })
  .meta({ id: 'PostPendingApprovalData', description: 'post.pending_approval: the job is held for approval (sent with post.accepted, or when an edit sends an approved post back to review).' });

const jobChange = { job_id: jobId, target_ids: z.array(z.string()).meta({ description: 'The targets the change touched.' }), targets: z.array(EventTargetSchema) };
const decision = {
  source: z.literal('review_link').optional().meta({ description: 'Sent when the decision came through a review link.' }),
  review_link_id: z.string().optional().meta({ description: 'The review link (with source).' }),
  comment: z.string().nullable().optional().meta({ description: "The review link's comment (with source)." }),
};

export const PostApprovedDataSchema = z.looseObject({ ...jobChange, ...decision }).meta({ id: 'PostApprovedData', description: 'post.approved: the held targets are scheduled.' });

export const PostRejectedDataSchema = z
  .looseObject({ ...jobChange, ...decision, reason: z.string().optional().meta({ description: 'Why (the request\'s reason or the review link\'s comment), when one was given.' }) })
  .meta({ id: 'PostRejectedData', description: 'post.rejected: the held targets are cancelled.' });

export const PostChangesRequestedDataSchema = z
  .looseObject({
    ...jobChange,
    comment: z.string().meta({ description: 'What the reviewer asks to change.' }),
    version: z.number().int().meta({ description: 'The content version the changes were asked on.' }),
    by: z.string().nullable().meta({ description: 'Who asked: the account email (dashboard), the key name (API, CLI, MCP), null through a review link.' }),
    source: z.enum(REVIEW_SOURCES).meta({ description: 'Where the request came from: dashboard, api, cli, mcp or review_link.' }),
    review_link_id: z.string().optional().meta({ description: 'The review link (with source review_link).' }),
  })
  .meta({ id: 'PostChangesRequestedData', description: 'post.changes_requested: a reviewer asked for changes; the held targets wait in changes_requested until the post is edited (then post.pending_approval, reason edited).' });

export const PostRetimedDataSchema = z.looseObject(jobChange).meta({ id: 'PostRetimedData', description: 'post.retimed: a PATCH moved targets (targets carry the new scheduled_for).' });

export const PostCancelledDataSchema = z.looseObject(jobChange).meta({ id: 'PostCancelledData', description: 'post.cancelled: DELETE cancelled the targets not yet started.' });

export const PostFinishedDataSchema = z
  .looseObject({ job_id: jobId, status: z.enum(['published', 'partially_published', 'failed']), targets: z.array(EventFinishedTargetSchema) })
  .meta({ id: 'PostFinishedData', description: 'post.finished: the job settled (once per job; a take-down later is not a second finish).' });

export const PostMetricsUpdatedDataSchema = z
  .looseObject({ target_id: targetId, platform: PlatformId, type: contentType, post_id: z.string(), collected_at: InstantOut, metrics: NormalizedMetricsSchema, platform_metrics: PlatformMetricsSchema })
  .meta({ id: 'PostMetricsUpdatedData', description: "post.metrics_updated: a published target's figures were read (on the collector's schedule or a refresh); GET /analytics/posts has the history." });

export const TargetPublishingDataSchema = z
  .looseObject({ ...targetFields, started_at: InstantOut })
  .meta({ id: 'TargetPublishingData', description: 'target.publishing: an attempt started.' });

export const TargetPublishedDataSchema = z
  .looseObject({ ...targetFields, post_id: z.string(), post_url: z.string().nullable(), published_at: InstantOut, ...followUpFields })
  .meta({ id: 'TargetPublishedData', description: 'target.published: the post is out.' });

export const TargetRetryingDataSchema = z
  .looseObject({
    ...targetFields,
    error: EventRetryErrorSchema,
    next_attempt_at: InstantOut,
    reason: z
      .enum(['rate_limit', 'retry'])
      .optional()
      .meta({ description: "Why it waits (the target's hold.reason): rate_limit, the platform's rate limit; retry, a failed attempt's backoff. Added with issue 35." }),
  })
  .meta({ id: 'TargetRetryingData', description: 'target.retrying: an attempt failed and will be retried at next_attempt_at.' });

export const TargetFailedDataSchema = z
  .looseObject({ ...targetFields, error: EventTargetErrorSchema, ...followUpFields })
  .meta({ id: 'TargetFailedData', description: 'target.failed: gave up (with a thread: the parts already out).' });

export const TargetNeedsReviewDataSchema = z
  .looseObject({ ...targetFields, error: EventTargetErrorSchema })
  .meta({ id: 'TargetNeedsReviewData', description: 'target.needs_review: the outcome is unknown (never published twice).' });

export const TargetRemovedDataSchema = z
  .looseObject({ target_id: targetId, platform: PlatformId, ...accountFields, type: contentType, post_id: z.string().nullable(), post_url: z.string().nullable(), removed_at: InstantOut })
  .meta({ id: 'TargetRemovedData', description: 'target.removed: a published target was taken down.' });

export const MediaTaskCompletedDataSchema = z
  .looseObject({ task_id: z.string(), status: z.literal('completed'), error: z.null() })
  .meta({ id: 'MediaTaskCompletedData', description: 'media.task_completed: every file of the task is ready.' });

export const MediaTaskFailedDataSchema = z
  .looseObject({ task_id: z.string(), status: z.literal('failed'), error: z.looseObject({ code: z.string(), message: z.string() }).nullable() })
  .meta({ id: 'MediaTaskFailedData', description: 'media.task_failed: the task ended without every file ready.' });

export const ConnectionExpiredDataSchema = z
  .looseObject({ connection_id: z.string(), platform: PlatformId, label: z.string().optional().meta({ description: "The connection's label (twitter:brand's brand). Added with several accounts per network." }), reason: z.string().nullable() })
  .meta({ id: 'ConnectionExpiredData', description: 'connection.expired: the connection must be connected again.' });

export const ConnectionRefreshFailedDataSchema = z
  .looseObject({ connection_id: z.string(), platform: PlatformId, label: z.string().optional().meta({ description: "The connection's label (twitter:brand's brand). Added with several accounts per network." }), error: z.string(), will_retry: z.boolean() })
  .meta({ id: 'ConnectionRefreshFailedData', description: 'connection.refresh_failed: a token refresh failed.' });

export const ConnectionExpiringSoonDataSchema = z
  .looseObject({ connection_id: z.string(), platform: PlatformId, label: z.string().optional().meta({ description: "The connection's label (twitter:brand's brand). Added with several accounts per network." }), expires_at: InstantOut })
  .meta({ id: 'ConnectionExpiringSoonData', description: 'connection.expiring_soon: a live token runs out within 3 days (once per expiry).' });

export const WebhookEndpointDisabledDataSchema = z
  .looseObject({ endpoint_id: z.string(), url: z.string(), reason: z.string() })
  .meta({ id: 'WebhookEndpointDisabledData', description: 'webhook.endpoint_disabled: an endpoint was disabled (410, or failing 5 days).' });

export const WebhookTestDataSchema = z
  .looseObject({ endpoint_id: z.string() })
  .meta({ id: 'WebhookTestData', description: 'webhook.test: sent only by POST /webhooks/{id}/test (id evt_test).' });

/** comment.received: a new comment or reply under a published post (one per item, the first time it is seen). */
export const CommentReceivedDataSchema = z
  .looseObject({
    item_id: z.string().meta({ description: 'The inbox item (inb_…).' }),
    job_id: jobId,
    target_id: targetId,
    platform: PlatformId,
    comment_id: z.string(),
    author_handle: z.string(),
    text: z.string(),
    created_at: InstantOut,
  })
  .meta({ id: 'CommentReceivedData', description: 'comment.received: someone answered a published post (GET /inbox lists it).' });

/** comment.replied: a reply of ours to an inbox item was sent. */
export const CommentRepliedDataSchema = z
  .looseObject({
    item_id: z.string(),
    reply_id: z.string().meta({ description: 'Our reply (rpl_…).' }),
    job_id: jobId,
    platform: PlatformId,
    comment_id: z.string(),
    post_id: z.string().meta({ description: "The reply's id on the network." }),
    post_url: z.string().nullable(),
    sent_at: InstantOut,
  })
  .meta({ id: 'CommentRepliedData', description: 'comment.replied: our reply to a comment is on the network.' });

/** What the three events of a reply held for approval carry: the reply, its comment, who wrote it. */
const heldReply = {
  item_id: z.string().meta({ description: 'The inbox item answered (inb_…).' }),
  reply_id: z.string().meta({ description: 'The reply (rpl_…).' }),
  job_id: jobId,
  platform: PlatformId,
  comment_id: z.string().meta({ description: "The comment's id on the network." }),
  text: z.string().meta({ description: 'The reply as written.' }),
  source: z.enum(POST_SOURCES).meta({ description: 'How it was written: api, mcp (an agent through the MCP server) or cli.' }),
  changed_at: InstantOut.meta({ description: 'When it was held, approved or declined.' }),
};

/** comment.reply_pending_approval: a reply written with an agent key (or through MCP while approval is on) waits for a person. */
export const CommentReplyPendingApprovalDataSchema = z
  .looseObject(heldReply)
  .meta({ id: 'CommentReplyPendingApprovalData', description: 'comment.reply_pending_approval: a reply waits for approval (POST /inbox/replies/{id}/approve or reject).' });

/** comment.reply_approved: a held reply was approved; it is queued and sent once (comment.replied). */
export const CommentReplyApprovedDataSchema = z
  .looseObject(heldReply)
  .meta({ id: 'CommentReplyApprovedData', description: 'comment.reply_approved: a held reply was approved and is queued (comment.replied follows once it is out).' });

/** comment.reply_rejected: a held reply was declined; nothing is sent. */
export const CommentReplyRejectedDataSchema = z
  .looseObject(heldReply)
  .meta({ id: 'CommentReplyRejectedData', description: 'comment.reply_rejected: a held reply was declined; nothing was sent.' });

/** Each catalogue type's data schema (the catalogue is event-types.ts; a test checks they match). */
export const EVENT_DATA_SCHEMAS = {
  'post.accepted': PostAcceptedDataSchema,
  'post.pending_approval': PostPendingApprovalDataSchema,
  'post.approved': PostApprovedDataSchema,
  'post.rejected': PostRejectedDataSchema,
  'post.changes_requested': PostChangesRequestedDataSchema,
  'post.retimed': PostRetimedDataSchema,
  'post.cancelled': PostCancelledDataSchema,
  'post.finished': PostFinishedDataSchema,
  'post.metrics_updated': PostMetricsUpdatedDataSchema,
  'target.publishing': TargetPublishingDataSchema,
  'target.published': TargetPublishedDataSchema,
  'target.retrying': TargetRetryingDataSchema,
  'target.failed': TargetFailedDataSchema,
  'target.needs_review': TargetNeedsReviewDataSchema,
  'target.removed': TargetRemovedDataSchema,
  'media.task_completed': MediaTaskCompletedDataSchema,
  'media.task_failed': MediaTaskFailedDataSchema,
  'connection.expired': ConnectionExpiredDataSchema,
  'connection.refresh_failed': ConnectionRefreshFailedDataSchema,
  'connection.expiring_soon': ConnectionExpiringSoonDataSchema,
  'webhook.endpoint_disabled': WebhookEndpointDisabledDataSchema,
  'comment.received': CommentReceivedDataSchema,
  'comment.replied': CommentRepliedDataSchema,
  'comment.reply_pending_approval': CommentReplyPendingApprovalDataSchema,
  'comment.reply_approved': CommentReplyApprovedDataSchema,
  'comment.reply_rejected': CommentReplyRejectedDataSchema,
} as const;

export type EventDataOf = { [T in keyof typeof EVENT_DATA_SCHEMAS]: z.infer<(typeof EVENT_DATA_SCHEMAS)[T]> };
