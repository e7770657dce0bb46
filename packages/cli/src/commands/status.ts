import type { Ctx } from '../context';
import { UsageError } from '../errors';

/** `socialpub status <job_id|task_id>`: a job or a media task, told apart by the id's prefix. */
export async function status(ctx: Ctx, { id }: { id: string }): Promise<void> {
  const client = await ctx.client();
  if (id.startsWith('task_')) {
    const [{ reportTask }, task] = await Promise.all([import('./prepare'), client.media.status(id)]);
    reportTask(ctx, task);
    return;
  }
  if (id.startsWith('job_')) {
    const { post } = await client.scheduled.get(id);
    await ctx.log.resultWith(post, () => import('../ui/format'), ({ renderPost }) => renderPost(ctx.log, post));
    return;
  }
  throw new UsageError(`"${id}" is neither a job id (job_…) nor a media task id (task_…)`);
}
