import type { RepliesContext, PublishContext, PublishOutcome } from '../../adapter';
import { PublishError } from '../../errors';
import type { ReplyPoster } from './reply-poster';

/** Checkpoint key: the comment request is out and unanswered. */
export const COMMENT_REQUEST = 'commentRequest';

export const COMMENT_INTERRUPTED =
  'the attempt stopped while the comment was being posted; it may or may not exist (check the post before adding it by hand)';

/**
 * Posts the first comment once the post (and its thread) is out. Its failure does not fail
 * the post: the error is kept on the target as `comment.error`. Checkpointed before the
 * request, so it is never posted twice: a request left unanswered by a crash is reported,
 * not repeated.
 */
export async function runFirstComment(ctx: PublishContext, fu: RepliesContext, post: PublishOutcome, poster: ReplyPoster): Promise<void> {
  if (fu.firstComment === null || fu.data.comment) return;
  if (ctx.checkpoint.data[COMMENT_REQUEST] != null && !poster.commentResumable) {
    await fu.save({ comment: { error: COMMENT_INTERRUPTED } }, { [COMMENT_REQUEST]: null });
    return;
  }
  if (!poster.comment) {
    await fu.save({ comment: { error: `${ctx.target.platform} takes no comments through its API` } });
    return;
  }
  // A resumed comment keeps the time of its first request (a platform's dedupe window runs from there).
  if (ctx.checkpoint.data[COMMENT_REQUEST] == null) await ctx.checkpoint.save({ [COMMENT_REQUEST]: ctx.clock.now() });
  try {
    const c = await poster.comment(ctx, post, fu.firstComment);
    await fu.save({ comment: { id: c.id, url: c.url } }, { [COMMENT_REQUEST]: null });
  } catch (err) {
    // Only the platform's answers are recorded; anything else (a lost lease, a stop) ends the attempt as it would without a comment.
    if (!(err instanceof PublishError) || ctx.signal.aborted) throw err;
    ctx.log.warn('first comment failed; the post stays published', { platform: ctx.target.platform, error: err.message });
    await fu.save({ comment: { error: err.message } }, { [COMMENT_REQUEST]: null });
  }
}
