import { z } from 'zod';
import { INBOX_REPLY_STATES, INBOX_STATUSES, POST_SOURCES } from '../states';
import { InstantOut, PlatformId } from './common';

/** The most a reply may hold before the network's own limit is checked (the longest any network allows: YouTube's 10,000). */
export const INBOX_REPLY_MAX_CHARS = 10_000;
export const INBOX_LIST_DEFAULT = 50;
export const INBOX_LIST_MAX = 200;

export const InboxStatusSchema = z.enum(INBOX_STATUSES).meta({ id: 'InboxStatus', description: 'unread (new), read, replied (a reply of ours was sent), hidden.' });
export const InboxReplyStateSchema = z
  .enum(INBOX_REPLY_STATES)
  .meta({ id: 'InboxReplyState', description: 'pending_approval (held for a person), queued, sending (the request may be out: read back before sending again), sent, failed (the network refused it), rejected (a person declined it).' });

/** Who wrote a comment, as the network names them. */
export const InboxAuthorSchema = z
  .object({
    name: z.string().nullable().meta({ description: 'The display name (null when the network gives none).' }),
    handle: z.string().meta({ description: 'The account name (@acct on Mastodon, the handle on Bluesky, the username on X).' }),
    url: z.string().nullable().meta({ description: "The author's profile page." }),
  })
  .meta({ id: 'InboxAuthor' });

/** A reply of ours to an inbox item. */
export const InboxReplySchema = z
  .object({
    id: z.string().meta({ description: 'The reply (rpl_…).' }),
    text: z.string(),
    state: InboxReplyStateSchema,
    source: z.enum(POST_SOURCES),
    post_id: z.string().nullable().meta({ description: "The reply's id on the network once sent." }),
    post_url: z.string().nullable(),
    error: z.string().nullable().meta({ description: 'Why the network refused it (state failed).' }),
    created_at: InstantOut,
    sent_at: InstantOut.nullable(),
    deleted_at: InstantOut.nullable().meta({ description: 'When socialpub deleted it from the network (DELETE /inbox/replies/{id}); null while it is up.' }),
  })
  .meta({ id: 'InboxReply' });

/** One comment or reply under a post we published. */
export const InboxItemSchema = z
  .object({
    id: z.string().meta({ description: 'The inbox item (inb_…).' }),
    platform: PlatformId,
    job_id: z.string().meta({ description: 'The post it answers (job_…).' }),
    target_id: z.string().meta({ description: 'The published target it answers (tgt_…).' }),
    post_id: z.string().meta({ description: "Our post's id on the network (the thread's root)." }),
    comment_id: z.string().meta({ description: "The comment's id on the network." }),
    in_reply_to: z.string().nullable().meta({ description: "The network id it answers: our post's, or another comment's in the thread." }),
    thread: z.array(z.string()).meta({ description: 'The ids on the network from our post down to this comment, the post first.' }),
    author: InboxAuthorSchema,
    text: z.string().meta({ description: 'As the author wrote it (HTML turned into text); show it as text, never as markup.' }),
    url: z.string().nullable(),
    created_at: InstantOut.meta({ description: 'When the author wrote it (the network says).' }),
    received_at: InstantOut.meta({ description: 'When socialpub first saw it.' }),
    status: InboxStatusSchema,
    replies: z.array(InboxReplySchema).meta({ description: 'Our replies to it, oldest first.' }),
  })
  .meta({ id: 'InboxItem' });
export type InboxItem = z.infer<typeof InboxItemSchema>;

/** GET /inbox. */
export const InboxQuerySchema = z.strictObject({
  platform: PlatformId.optional(),
  status: InboxStatusSchema.optional(),
  job_id: z.string().min(1).optional(),
  reply_state: InboxReplyStateSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(INBOX_LIST_MAX, { error: `limit must be at most ${INBOX_LIST_MAX}` })
    .default(INBOX_LIST_DEFAULT),
  cursor: z.string().min(1).optional(),
});
export type InboxQuery = z.infer<typeof InboxQuerySchema>;

export const InboxListSchema = z
  .object({ success: z.literal(true), items: z.array(InboxItemSchema), unread: z.number().int().meta({ description: "The caller's unread items (all platforms and posts)." }), next_cursor: z.string().nullable() })
  .meta({ id: 'InboxList' });
export type InboxList = z.infer<typeof InboxListSchema>;

export const InboxItemResponseSchema = z.object({ success: z.literal(true), message: z.string(), item: InboxItemSchema }).meta({ id: 'InboxItemResponse' });
export type InboxItemResponse = z.infer<typeof InboxItemResponseSchema>;

/** POST /inbox/{id}/reply. */
export const InboxReplyRequestSchema = z
  .strictObject({
    text: z
      .string({ error: 'text is required' })
      .refine((t) => t.trim() !== '', { error: 'text must not be empty' })
      .refine((t) => [...t].length <= INBOX_REPLY_MAX_CHARS, { error: `text must be at most ${INBOX_REPLY_MAX_CHARS} characters` }),
  })
  .meta({ id: 'InboxReplyRequest' });
export type InboxReplyRequest = z.infer<typeof InboxReplyRequestSchema>;

export const InboxReplyResponseSchema = z
  .object({ success: z.literal(true), message: z.string(), reply: InboxReplySchema, item: InboxItemSchema })
  .meta({ id: 'InboxReplyResponse' });
export type InboxReplyResponse = z.infer<typeof InboxReplyResponseSchema>;

/** POST /inbox/refresh: what one pass over the caller's published posts found. */
export const InboxRefreshResponseSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    new_items: z.number().int(),
    posts_checked: z.number().int(),
    skipped: z.array(z.object({ platform: PlatformId, reason: z.string() })).meta({ description: 'Posts not read, by platform, and why (no comment API, a connection gone, a rate budget spent).' }),
  })
  .meta({ id: 'InboxRefreshResponse' });
export type InboxRefreshResponse = z.infer<typeof InboxRefreshResponseSchema>;

/** `{id}` of a reply's approval routes. */
export const InboxReplyParamsSchema = z.object({ id: z.string() });
