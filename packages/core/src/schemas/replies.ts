import { z } from 'zod';
import { networkOf } from '../account-key';
import { COMMENT_TYPES, listInWords, platformDescriptions, platformsWithInWords, type ContentType, type FollowUpRules, type Platform } from '../platforms';
import { MediaUrlListSchema } from './media-urls';

/** The platforms whose description has this follow-up rule, in the registry's order. */
export function platformsWith(rule: keyof FollowUpRules): Platform[] {
  return platformDescriptions()
    .filter((d) => d.followUps[rule])
    .map((d) => d.id as Platform);
}

/** Platforms that publish reply chains (their descriptions' followUps.thread; docs/reference/platforms.md §12.3.2, §12.4.1). */
export const THREAD_PLATFORMS: readonly Platform[] = platformsWith('thread');
/** A platform that publishes reply chains (one of THREAD_PLATFORMS). */
export type ThreadPlatform = Platform;

/** Platforms where socialpub posts a first comment (followUps.firstComment; a self-reply where followUps.commentIsPost; docs/reference/platforms.md §12). */
export const COMMENT_PLATFORMS: readonly Platform[] = platformsWith('firstComment');
/** A platform that takes a first comment (one of COMMENT_PLATFORMS). */
export type CommentPlatform = Platform;

/** The content types that carry a first comment (defined with the content types, for the dashboard's zod-free import). */
export { COMMENT_TYPES };

/** Thread parts after the post itself (the post is part 1 of the chain). */
export const MAX_THREAD_PARTS = 24;

/** Longest first comment accepted before the platform's own rule (YouTube's ~10,000; the shorter platforms check theirs). */
export const MAX_FIRST_COMMENT = 10_000;

export const ThreadPartSchema = z
  .strictObject({
    caption: z.string({ error: 'caption must be a string' }).nullish().meta({ description: "The part's text, checked with the platform's caption rules." }),
    media_urls: MediaUrlListSchema.nullish().meta({ description: "The part's media, checked with the platform's media rules." }),
  })
  .superRefine((part, ctx) => {
    if ((part.caption ?? '').trim() === '' && (part.media_urls ?? []).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['caption'], message: 'a thread part needs a caption or media_urls' });
    }
  })
  .meta({ id: 'ThreadPart' });
export type ThreadPart = z.infer<typeof ThreadPartSchema>;

const ThreadParts = z
  .array(ThreadPartSchema)
  .min(1, { error: 'a thread lists at least one thread part' })
  .max(MAX_THREAD_PARTS, { error: `a thread takes at most ${MAX_THREAD_PARTS} thread parts` });

export const ThreadSchema = z
  .union([ThreadParts, z.strictObject(Object.fromEntries(THREAD_PLATFORMS.map((p) => [p, ThreadParts.optional()])) as Record<ThreadPlatform, z.ZodOptional<typeof ThreadParts>>)])
  .meta({
    id: 'Thread',
    description: `Thread parts published as a reply chain after the post, in order (${listInWords(THREAD_PLATFORMS)}). A list applies to every listed platform that has reply chains; an object gives each its own. Other platforms publish the post alone.`,
  });
export type Thread = z.infer<typeof ThreadSchema>;

const CommentText = z
  .string({ error: 'a first comment must be a string' })
  .refine((s) => s.trim().length > 0, { error: 'a first comment must not be empty' })
  .refine((s) => s.length <= MAX_FIRST_COMMENT, { error: `a first comment is at most ${MAX_FIRST_COMMENT} characters` });

export const FirstCommentSchema = z
  .union([
    CommentText,
    z.strictObject(Object.fromEntries(COMMENT_PLATFORMS.map((p) => [p, CommentText.optional()])) as Record<CommentPlatform, z.ZodOptional<typeof CommentText>>),
  ])
  .meta({
    id: 'FirstComment',
    description: `A comment posted under the post once it is published (${platformsWithInWords('commentIsPost')}: a self-reply). One string for every listed platform that takes comments, or one per platform. Its failure does not fail the post.`,
  });
export type FirstComment = z.infer<typeof FirstCommentSchema>;

interface ReplyFields {
  /** Networks, or account keys (`twitter:brand`): replies are keyed by network and apply to every account of it. */
  platforms: readonly string[];
  thread?: Thread | null;
  first_comment?: FirstComment | null;
}

const includes = <T extends string>(list: readonly T[], p: string): p is T => (list as readonly string[]).includes(p);

/** The thread parts a platform publishes for this request ([] when none). */
export function threadFor(req: Pick<ReplyFields, 'thread'>, platform: Platform): ThreadPart[] {
  if (!req.thread || !includes(THREAD_PLATFORMS, platform)) return [];
  return Array.isArray(req.thread) ? req.thread : (req.thread[platform] ?? []);
}

/** The first comment a target of this platform and type posts, or null. */
export function firstCommentFor(req: Pick<ReplyFields, 'first_comment'>, platform: Platform, type?: ContentType): string | null {
  const fc = req.first_comment;
  if (fc == null || !includes(COMMENT_PLATFORMS, platform)) return null;
  if (type !== undefined && !COMMENT_TYPES.includes(type)) return null;
  return typeof fc === 'string' ? fc : (fc[platform] ?? null);
}

/** Cross-field rules of thread and first_comment: per-platform keys must be listed platforms; a shared value must reach one. */
export function checkReplies(req: ReplyFields, ctx: z.RefinementCtx): void {
  const networks = req.platforms.map(networkOf);
  const listed = new Set<string>(networks);
  const check = (field: 'thread' | 'first_comment', value: unknown, shared: boolean, able: readonly string[], what: string) => {
    if (value == null) return;
    if (shared) {
      if (!networks.some((p) => able.includes(p))) {
        ctx.addIssue({ code: 'custom', path: [field], message: `none of the platforms ${what} (${field} applies to ${able.join(', ')})` });
      }
      return;
    }
    for (const key of Object.keys(value as object)) {
      if (!listed.has(key)) ctx.addIssue({ code: 'custom', path: [field, key], message: `${key} is not among platforms` });
    }
  };
  check('thread', req.thread, Array.isArray(req.thread), THREAD_PLATFORMS, 'publishes reply chains');
  check('first_comment', req.first_comment, typeof req.first_comment === 'string', COMMENT_PLATFORMS, 'takes a first comment');
}

/** A thread part that is out: part 2 is the first reply under the post (part 1). */
export const ThreadPostSchema = z
  .object({ part: z.number().int(), post_id: z.string(), post_url: z.string().nullable() })
  .meta({ id: 'ThreadPost' });
export type ThreadPost = z.infer<typeof ThreadPostSchema>;

export const CommentResultSchema = z
  .union([z.object({ id: z.string(), url: z.string().nullable() }), z.object({ error: z.string() })])
  .meta({ id: 'CommentResult', description: 'The first comment: its id and URL once posted, or why it could not be posted.' });
export type CommentResult = z.infer<typeof CommentResultSchema>;

/** What became of a target's replies (thread parts, first comment), as stored on the target and shown in its view. */
export interface TargetReplies {
  thread?: ThreadPost[];
  comment?: CommentResult;
}

/** The replies a post asks for (thread, first comment), as stored with the post. */
export interface PostReplies {
  thread?: Thread;
  first_comment?: FirstComment;
}
