import type { PlatformAdapter, ReconcileResult } from '../../adapter';
import { chainState, runChain } from './chain-runner';
import { COMMENT_INTERRUPTED, COMMENT_REQUEST } from './first-comment';
import { runFirstComment } from './first-comment';
import type { ReplyPoster } from './reply-poster';

/**
 * An adapter that, after its post, publishes the target's thread (a reply chain) and then
 * its first comment. The post itself resumes from the adapter's own checkpoint (an
 * adapter returns the post it already made), so a resumed attempt goes straight on with
 * the first part not yet out.
 *
 * Reconcile: an interrupted post is settled by the adapter as before; once the post is
 * out, an unfinished chain is `not_published` (the target is scheduled again and resumes
 * with the next part), a part sent but unanswered is `unknown` (needs review), and a
 * comment never started makes the attempt resume for it.
 */
export function withReplies(base: PlatformAdapter, poster: ReplyPoster): PlatformAdapter {
  return {
    platform: base.platform,
    validate: (input) => base.validate(input),
    ...(base.infoFor ? { infoFor: base.infoFor.bind(base) } : {}),
    ...(base.checkAccount ? { checkAccount: base.checkAccount.bind(base) } : {}),
    ...(base.prepare ? { prepare: base.prepare.bind(base) } : {}),

    async publish(ctx) {
      const outcome = await base.publish(ctx);
      const fu = ctx.replies;
      if (!fu) return outcome;
      await runChain(ctx, fu, outcome, poster);
      await runFirstComment(ctx, fu, outcome, poster);
      return outcome;
    },

    async reconcile(ctx): Promise<ReconcileResult> {
      const result = await base.reconcile(ctx);
      const fu = ctx.replies;
      if (result.state !== 'published' || !fu) return result;
      const chain = chainState(ctx, fu, poster);
      if (chain.state === 'unknown') return { state: 'unknown', reason: chain.reason };
      if (chain.state === 'incomplete') return { state: 'not_published', reason: chain.reason };
      if (fu.firstComment !== null && !fu.data.comment) {
        if (ctx.checkpoint.data[COMMENT_REQUEST] == null) {
          return { state: 'not_published', reason: 'the post is out; its first comment is still to be posted' };
        }
        if (poster.commentResumable) return { state: 'not_published', reason: 'the first comment went unanswered; it is sent again, which the platform dedupes' };
        await fu.save({ comment: { error: COMMENT_INTERRUPTED } }, { [COMMENT_REQUEST]: null });
      }
      return result;
    },
  };
}
