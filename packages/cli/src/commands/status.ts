import type { Ctx } from '../context';
import { UsageError } from '../errors';
import { renderPost } from '../ui/format';
import { reportTask } from './prepare';

/** `socialpub status <job_id|task_id>`: a job or a media task, told apart by the id's prefix. */
export async function status(ctx: Ctx, { id }: { id: string }): Promise<void> {
  const client = await ctx.client();
  if (id.startsWith('task_')) {
    reportTask(ctx, await client.media.status(id));
    return;
  }
  if (id.startsWith('job_')) {
    const { post } = await client.scheduled.get(id);
    ctx.log.result(post, () => renderPost(ctx.log, post));
    return;
  }
  throw new UsageError(`"${id}" is neither a job id (job_…) nor a media task id (task_…)`);
}
