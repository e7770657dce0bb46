import type { ThreadPost } from '@socialpub/core';
import type { RepliesContext, PublishContext, PublishOutcome } from '../../adapter';
import { OutcomeUnknownError, PublishError } from '../../errors';
import type { ReplyPoster } from './reply-poster';

/** Checkpoint key: the part whose request is out and unanswered (cleared once its id is saved). */
export const CHAIN_REQUEST = 'chainRequest';

interface ChainRequest {
  part: number;
  at: number;
}

export function pendingPart(ctx: PublishContext): number | null {
  const r = ctx.checkpoint.data[CHAIN_REQUEST] as ChainRequest | undefined;
  return r ? r.part : null;
}

/** The chain so far, the post itself as part 1 (what the target shows as thread_posts). */
function chainSoFar(fu: RepliesContext, post: PublishOutcome): ThreadPost[] {
  const out = fu.data.thread ?? [];
  return out.length > 0 ? [...out] : [{ part: 1, post_id: post.postId, post_url: post.postUrl }];
}

/**
 * Publishes the follow-up parts as a reply chain, each a reply to the part before, in order.
 * Before each part the request is checkpointed; its post id is saved (with the chain so far,
 * in the target's follow-ups) before the next part starts. A resumed run starts after the
 * last part saved and never posts one twice: a part sent but unanswered is outcome unknown
 * (needs review) unless the platform dedupes it (`replyResumable`).
 */
export async function runChain(ctx: PublishContext, fu: RepliesContext, post: PublishOutcome, poster: ReplyPoster): Promise<void> {
  if (fu.thread.length === 0) return;
  if (!poster.reply) throw new Error(`${ctx.target.platform} publishes no reply chains`);
  const total = fu.thread.length + 1;
  const chain = chainSoFar(fu, post);
  // The post is part 1: shown with the chain from the start, so a chain that stops at part 2 still says what is out.
  if (!fu.data.thread?.length) await fu.save({ thread: chain });
  for (let i = chain.length - 1; i < fu.thread.length; i++) {
    const part = i + 2;
    const spec = fu.thread[i]!;
    if (pendingPart(ctx) === part && !poster.replyResumable) {
      throw new OutcomeUnknownError(`thread part ${part} of ${total} was sent and never answered; it may or may not exist (parts 1-${part - 1} are out)`, {
        platformCode: 'thread_part_unknown',
      });
    }
    const sending = () => ctx.checkpoint.save({ [CHAIN_REQUEST]: { part, at: ctx.clock.now() } satisfies ChainRequest });
    let posted;
    try {
      posted = await poster.reply(ctx, chain[chain.length - 1]!.post_id, { part, caption: spec.caption ?? '', media: fu.threadMedia[i] ?? [], sending });
    } catch (err) {
      if (err instanceof PublishError) {
        err.message = `thread part ${part} of ${total}: ${err.message} (parts 1-${part - 1} are out)`;
        // An answer proves the part was not made: the next attempt may send it again.
        if (!(err instanceof OutcomeUnknownError) && pendingPart(ctx) !== null) await ctx.checkpoint.save({ [CHAIN_REQUEST]: null });
      }
      throw err;
    }
    chain.push({ part, post_id: posted.id, post_url: posted.url });
    await fu.save({ thread: chain }, { [CHAIN_REQUEST]: null });
  }
}

/** Where an interrupted chain stands, for reconcile: complete, resumable, or unknown. */
export function chainState(ctx: PublishContext, fu: RepliesContext, poster: ReplyPoster): { state: 'complete' } | { state: 'incomplete' | 'unknown'; reason: string } {
  if (fu.thread.length === 0) return { state: 'complete' };
  const total = fu.thread.length + 1;
  const out = Math.max(1, fu.data.thread?.length ?? 0);
  const pending = pendingPart(ctx);
  if (pending !== null && !poster.replyResumable) {
    return { state: 'unknown', reason: `thread part ${pending} of ${total} was being posted when the attempt stopped; it may or may not exist (parts 1-${pending - 1} are out)` };
  }
  if (out < total) return { state: 'incomplete', reason: `the thread stopped after part ${out} of ${total}; publishing resumes with part ${out + 1}` };
  return { state: 'complete' };
}
