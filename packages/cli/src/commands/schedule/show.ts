import type { Ctx } from '../../context';
import { renderPost } from '../../ui/format';

/** `socialpub schedule show <job_id>`. */
export async function scheduleShow(ctx: Ctx, { jobId }: { jobId: string }): Promise<void> {
  const client = await ctx.client();
  const { post } = await client.scheduled.get(jobId);
  ctx.log.result(post, () => renderPost(ctx.log, post));
}
