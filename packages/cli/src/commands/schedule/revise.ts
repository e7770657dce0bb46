import type { Post } from '@socialpub/core';
import type { Ctx } from '../../context';
import { REVIEW_SOURCE_WORDS, decisionLine, timeToSecond } from '../../ui/format';

/** `socialpub schedule request-changes <job_id> -m "…"`: the job waits in changes_requested until it is edited. */
export async function scheduleRequestChanges(ctx: Ctx, { jobId, message }: { jobId: string; message: string }): Promise<void> {
  const client = await ctx.client();
  const res = await client.scheduled.requestChanges(jobId, { comment: message });
  const { success: _ok, ...data } = res;
  ctx.log.result(data, () => [`${ctx.log.green('✔')} ${res.message}`, ctx.log.dim(`once edited (socialpub schedule retime ${jobId}, or the agent's edit) it is back for approval`)]);
}

/** `socialpub schedule comment <job_id> -m "…"`: adds a comment to the job's thread. */
export async function scheduleComment(ctx: Ctx, { jobId, message }: { jobId: string; message: string }): Promise<void> {
  const client = await ctx.client();
  const { comment } = await client.scheduled.comment(jobId, message);
  ctx.log.result(comment, () => `${ctx.log.green('✔')} Commented on ${jobId}`);
}

/** `socialpub schedule comments <job_id>`: the job's comment thread and approval history, oldest first. */
export async function scheduleComments(ctx: Ctx, { jobId }: { jobId: string }): Promise<void> {
  const client = await ctx.client();
  const { post } = await client.scheduled.get(jobId);
  const data = { approvals: post.approvals ?? [], comments: post.comments ?? [] };
  ctx.log.result(data, () => renderReview(ctx, post));
}

/** The approval history (one decision a line), then the comments. */
export function renderReview(ctx: Ctx, post: Post): string[] {
  const history = (post.approvals ?? []).map((a) => decisionLine(a, post.timezone));
  const comments = (post.comments ?? []).map((c) => `${timeToSecond(c.at, post.timezone)} ${c.by ?? REVIEW_SOURCE_WORDS[c.source]}: ${c.body}`);
  return [...(history.length ? history : [ctx.log.dim('no decisions yet')]), '', ...(comments.length ? comments : [ctx.log.dim('no comments')])];
}
