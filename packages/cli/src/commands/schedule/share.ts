import type { Ctx } from '../../context';

/** `socialpub schedule share <job_id>...`: POST /review-links; prints the link (shown this once). */
export async function scheduleShare(ctx: Ctx, { jobIds, expiresInHours }: { jobIds: string[]; expiresInHours?: number }): Promise<void> {
  const client = await ctx.client();
  const link = await client.reviewLinks.create({ job_ids: jobIds, ...(expiresInHours !== undefined ? { expires_in_hours: expiresInHours } : {}) });
  ctx.log.result(link, () => [
    `${ctx.log.green('✔')} review link ${ctx.log.bold(link.id)} for ${link.job_ids.join(', ')}`,
    '',
    `  ${ctx.log.bold(link.url)}`,
    '',
    ctx.log.dim(`Anyone with this link can approve or reject ${link.job_ids.length === 1 ? 'this post' : 'these posts'} until ${link.expires_at}. It is shown once; revoke it with DELETE /api/agents/v1/review-links/${link.id}.`),
  ]);
}
