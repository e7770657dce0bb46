import { z } from 'zod';
import { POST_SOURCES, JOB_STATUSES, REVIEW_ACTIONS, REVIEW_SOURCES } from '../states';
import { AccountKeySchema, InstantIn, InstantOut, PlatformId } from './common';
import { TimeIn, ZoneName } from './zoned';

import { AccountPlatformOptionsSchema, TargetStatusSchema, checkAccountOptions } from './publish';
import { CommentResultSchema, FirstCommentSchema, ThreadPostSchema, ThreadSchema } from './replies';

export const JobStatusSchema = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });

export const TargetErrorSchema = z
  .object({ code: z.string(), message: z.string(), platform_code: z.string().nullable().optional() })
  .meta({ id: 'TargetError' });

export const TargetRemovalSchema = z
  .object({
    state: z.enum(['failed', 'unknown']).meta({
      description: 'failed: the platform refused the deletion (the post is still up); unknown: the request went out and no answer came back.',
    }),
    code: z.string(),
    message: z.string(),
    at: InstantOut,
  })
  .meta({ id: 'TargetRemoval', description: 'The last take-down attempt of a target that is still published, else null.' });

export const TargetHoldSchema = z
  .object({
    reason: z.enum(['rate_limit', 'retry']).meta({
      description: "rate_limit: the platform's rate limit or usage cap pauses the connection (or the platform's app) until next_attempt_at; retry: an attempt failed without posting and is tried again at next_attempt_at.",
    }),
    message: z.string().meta({ description: "The platform's words (a rate limit), or the failed attempt's error (a retry)." }),
    platform_code: z.string().nullable(),
    applies_to: z.enum(['connection', 'app']).nullable().meta({ description: "A rate limit's scope (as GET /platforms' connection.paused); null for a retry." }),
  })
  .meta({ id: 'TargetHold', description: 'What holds a scheduled target past its scheduled_for: sent with next_attempt_at, else null.' });
export type TargetHold = z.infer<typeof TargetHoldSchema>;

export const PostStepSchema = z
  .object({
    status: z.enum(['done', 'failed', 'unknown']).meta({ description: 'unknown: the request was sent and no answer came (it may have taken effect).' }),
    id: z.string().optional().meta({ description: 'What the step made, when it has an id (a playlist item).' }),
    error: z.string().optional(),
  })
  .meta({ id: 'PostStep' });
export type PostStep = z.infer<typeof PostStepSchema>;

export const TargetSchema = z
  .object({
    // Always sent; optional in the type for older fixtures. Events name their target by it (a
    // post may have two targets of one platform and type, on two accounts).
    target_id: z.string().optional().meta({ description: "The target (tgt_…), as events' target_id names it." }),
    platform: PlatformId,
    // Several accounts per network (issue 39): always sent; optional in the type for older fixtures.
    label: z.string().nullable().optional().meta({ description: "The label of the account it publishes through; null when that connection was removed." }),
    connection_id: z.string().nullable().optional().meta({ description: 'The connection (account) it publishes through; null for a target accepted before accounts had labels and not yet sent.' }),
    type: z.string(),
    scheduled_for: InstantOut,
    status: TargetStatusSchema,
    attempts: z.number().int(),
    post_id: z.string().nullable(),
    post_url: z.string().nullable(),
    published_at: InstantOut.nullable(),
    error: TargetErrorSchema.nullable(),
    // Holds (issue 35): always sent by this daemon; optional in the type for older fixtures.
    next_attempt_at: InstantOut.nullable().optional().meta({
      description: 'When a scheduled target is held past its scheduled_for (a platform rate limit, a retry after a failed attempt): the time of its next attempt, in the future; else null.',
    }),
    hold: TargetHoldSchema.nullable().optional(),
    scheduled_local: z.string().optional().meta({ description: 'scheduled_for as local wall time in the post timezone (always sent).' }),
    thread_posts: z.array(ThreadPostSchema).optional().meta({
      description: "The thread parts of the thread already out, in order (part 2 is the first reply); sent when the target has a thread. On a failed target: how far the chain got.",
    }),
    comment: CommentResultSchema.nullable().optional().meta({
      description: 'The first comment: {id, url} once posted, {error} when it could not be; null while not yet posted; sent when the target has one.',
    }),
    // Take-downs (POST /content/scheduled/unpublish): always sent; optional in the type for older fixtures.
    removed_at: InstantOut.nullable().optional().meta({ description: 'When the post was taken down (status removed), else null.' }),
    removal: TargetRemovalSchema.nullable().optional(),
    post_steps: z
      .record(z.string(), PostStepSchema)
      .optional()
      .meta({ description: 'Steps after the post that do not decide whether it is published (youtube: thumbnail, playlist), by name; present once a step ran. A failed step leaves the post published.' }),
    follow_ups: z
      .record(z.string(), PostStepSchema)
      .optional()
      .meta({ deprecated: true, description: 'Deprecated alias of post_steps: the same value, sent whenever post_steps is. Read post_steps.' }),
  })
  .meta({ id: 'Target' });
export type Target = z.infer<typeof TargetSchema>;

/** Most characters of a review comment (request changes, a comment on a post, a reject reason). */
export const MAX_REVIEW_COMMENT_CHARS = 2000;

const reviewBy = z.string().nullable().meta({
  description: 'Who: the account email (the dashboard), the key name or its prefix (API, CLI, MCP); null through a review link (its reviewer is not known).',
});

export const ApprovalEntrySchema = z
  .object({
    action: z.enum(REVIEW_ACTIONS),
    by: reviewBy,
    source: z.enum(REVIEW_SOURCES).meta({ description: 'Where the decision was made: dashboard, api, cli, mcp or review_link.' }),
    review_link_id: z.string().optional().meta({ description: 'The review link (with source review_link).' }),
    at: InstantOut,
    version: z.number().int().meta({ description: 'The content version decided on.' }),
    comment: z.string().nullable().meta({ description: 'The reviewer\'s words (a reject reason, the changes asked for, a review link\'s comment), else null.' }),
  })
  .meta({ id: 'ApprovalEntry', description: 'One decision of a post\'s approval history.' });
export type ApprovalEntry = z.infer<typeof ApprovalEntrySchema>;

export const PostCommentSchema = z
  .object({
    id: z.string(),
    body: z.string(),
    by: reviewBy,
    source: z.enum(REVIEW_SOURCES),
    review_link_id: z.string().optional(),
    at: InstantOut,
    version: z.number().int().meta({ description: 'The content version the comment was written on.' }),
  })
  .meta({ id: 'PostComment', description: 'One comment of a post\'s thread (a request for changes is also a comment).' });
export type PostComment = z.infer<typeof PostCommentSchema>;

export const PostSchema = z
  .object({
    job_id: z.string(),
    status: JobStatusSchema,
    caption: z.string(),
    platforms: z.array(AccountKeySchema),
    platform_captions: z.record(z.string(), z.string()),
    platform_types: z.record(z.string(), z.array(z.string())),
    media_urls: z.array(z.string()),
    scheduled_for: InstantOut.nullable(),
    type_schedule: z.record(z.string(), z.string()),
    require_approval: z.boolean(),
    platform_options: AccountPlatformOptionsSchema,
    thread: ThreadSchema.optional().meta({ description: 'The reply chain asked for (sent when the request had one).' }),
    first_comment: FirstCommentSchema.optional().meta({ description: 'The first comment asked for (sent when the request had one).' }),
    source: z.enum(POST_SOURCES).meta({ description: 'How the post was created: api, mcp (an agent through the MCP server) or cli.' }),
    created_at: InstantOut,
    updated_at: InstantOut,
    version: z.number().int().optional().meta({
      description: 'The content version: 1 when created, one more on each edit of caption, platform_captions or platform_options (always sent). A review-link decision names it.',
    }),
    targets: z.array(TargetSchema),
    // Time fields (always sent by this daemon; optional in the type for older clients' fixtures).
    timezone: z.string().optional().meta({ description: 'The post zone (UTC when none was given); retiming keeps it.' }),
    scheduled_local: z.string().nullable().optional().meta({ description: 'scheduled_for as local wall time in timezone.' }),
    queue_slot: z.string().nullable().optional().meta({ description: 'The weekly queue slot the post holds, else null.' }),
    series_id: z.string().nullable().optional(),
    occurrence: z.number().int().nullable().optional().meta({ description: '1-based position in its series, else null.' }),
    rejection: z
      .object({
        reason: z.string().nullable(),
        at: InstantOut,
        source: z.string().meta({ description: 'api, mcp, cli (the reject request\'s source) or review_link.' }),
        review_link_id: z.string().optional(),
      })
      .optional()
      .meta({ description: 'Sent once the job was rejected: why (the reject request\'s reason, or the review link\'s comment) and through what.' }),
    // The revision loop (issue 38): always sent by this daemon; optional in the type for older fixtures.
    approvals: z.array(ApprovalEntrySchema).optional().meta({ description: 'The approval history, oldest first: each approve, reject and request for changes, who made it, from where and on which version.' }),
    comments: z.array(PostCommentSchema).optional().meta({ description: 'The comment thread, oldest first (POST /content/scheduled/comments adds one).' }),
  })
  .meta({ id: 'Post', description: 'A publication job and its targets.' });
export type Post = z.infer<typeof PostSchema>;

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 200;

export const ListQuerySchema = z.object({
  status: z.enum([...JOB_STATUSES, 'all'] as const, { error: `status must be one of: all, ${JOB_STATUSES.join(', ')}` }).default('all'),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(LIST_LIMIT_MAX, { error: `limit must be at most ${LIST_LIMIT_MAX}` })
    .default(LIST_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional(),
  platform: PlatformId.optional().meta({ description: 'Only posts with a target on this network (any of its accounts).' }),
  target_status: TargetStatusSchema.optional().meta({
    description: 'Only posts with at least one target in this status: target_status=failed finds partly failed posts (partially_published) too, which status=failed does not.',
  }),
  source: z.enum(POST_SOURCES).optional().meta({ description: 'Only posts created this way: api, mcp or cli.' }),
  q: z
    .string()
    .trim()
    .min(1, { error: 'q must not be empty' })
    .max(200, { error: 'q must be at most 200 characters' })
    .optional()
    .meta({ description: "Only posts whose caption or a platform's own caption contains this text (letters A-Z in any case), or whose job id it is." }),
  from: InstantIn.optional().meta({ description: "Only posts whose time (scheduled_for, else when created) is at or after this instant." }),
  to: InstantIn.optional().meta({ description: 'Only posts whose time is before this instant.' }),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const ListResponseSchema = z
  .object({ success: z.literal(true), posts: z.array(PostSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'PostList' });
export type ListResponse = z.infer<typeof ListResponseSchema>;

export const GetResponseSchema = z.object({ success: z.literal(true), post: PostSchema }).meta({ id: 'PostResponse' });
export type GetResponse = z.infer<typeof GetResponseSchema>;

/** POST /content/scheduled/reject's optional body. */
export const RejectRequestSchema = z
  .object({ reason: z.string().max(2000, { error: 'reason must be at most 2000 characters' }).nullable().optional() })
  .strict()
  .meta({ id: 'RejectRequest' });
export type RejectRequest = z.infer<typeof RejectRequestSchema>;

/** POST /content/scheduled/request-changes's body. */
export const RequestChangesRequestSchema = z
  .object({
    comment: z
      .string({ error: 'comment is required: say what should change' })
      .refine((s) => s.trim().length > 0, { error: 'comment is required: say what should change' })
      .refine((s) => s.length <= MAX_REVIEW_COMMENT_CHARS, { error: `comment must be at most ${MAX_REVIEW_COMMENT_CHARS} characters` }),
    version: z.number().int().min(1).optional().meta({ description: 'The content version the request is made on: refused (409) when the post changed since.' }),
  })
  .strict()
  .meta({ id: 'RequestChangesRequest' });
export type RequestChangesRequest = z.infer<typeof RequestChangesRequestSchema>;

/** POST /content/scheduled/comments's body. */
export const CommentRequestSchema = z
  .object({
    body: z
      .string({ error: 'body is required' })
      .refine((s) => s.trim().length > 0, { error: 'body must not be empty' })
      .refine((s) => s.length <= MAX_REVIEW_COMMENT_CHARS, { error: `body must be at most ${MAX_REVIEW_COMMENT_CHARS} characters` }),
  })
  .strict()
  .meta({ id: 'CommentRequest' });
export type CommentRequest = z.infer<typeof CommentRequestSchema>;

export const CommentListSchema = z.object({ success: z.literal(true), comments: z.array(PostCommentSchema) }).meta({ id: 'CommentList' });
export type CommentList = z.infer<typeof CommentListSchema>;

export const CommentCreatedSchema = z.object({ success: z.literal(true), comment: PostCommentSchema }).meta({ id: 'CommentCreated' });
export type CommentCreated = z.infer<typeof CommentCreatedSchema>;

export const JobIdQuerySchema = z.object({ job_id: z.string({ error: 'job_id is required' }).min(1, { error: 'job_id is required' }) });

/**
 * Query of GET /content/scheduled: a page of the list, or with `job_id` the one post (the
 * list's parameters are then ignored). The route reads job_id first (JobIdQuerySchema),
 * so this describes the whole query for the OpenAPI document and the SDK.
 */
export const ScheduledQuerySchema = z.object({ job_id: z.string().optional(), ...ListQuerySchema.shape });

export const UpdateRequestSchema = z
  .object({
    scheduled_for: TimeIn.optional(),
    timezone: ZoneName.optional().meta({ description: 'New zone for the post; alone it keeps the local wall time and moves the instant.' }),
    caption: z.string().refine((s) => s.trim().length > 0, { error: 'caption must not be empty' }).optional(),
    platform_captions: z.record(z.string(), z.string().min(1)).optional(),
    type_schedule: z.record(z.string(), z.string()).optional(),
    platform_options: AccountPlatformOptionsSchema.optional().meta({
      description: "Replaces the options of each platform (or `platform:label` account) it names (the others keep theirs); only while its targets have not started.",
    }),
  })
  .superRefine((b, ctx) => checkAccountOptions(b.platform_options, ctx))
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'give at least one of scheduled_for, timezone, caption, platform_captions, type_schedule, platform_options',
    path: ['scheduled_for'],
  })
  .meta({ id: 'UpdateRequest' });
export type UpdateRequest = z.infer<typeof UpdateRequestSchema>;

export const UpdateResponseSchema = z
  .object({ success: z.literal(true), message: z.string(), post: PostSchema })
  .meta({ id: 'UpdateResponse' });
export type UpdateResponse = z.infer<typeof UpdateResponseSchema>;

export const CancelResponseSchema = z
  .object({ success: z.literal(true), message: z.string(), job_id: z.string(), status: z.literal('cancelled') })
  .meta({ id: 'CancelResponse' });
export type CancelResponse = z.infer<typeof CancelResponseSchema>;
