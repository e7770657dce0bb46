import type { Ctx } from '../../context';
import { renderPost, timeToSecond } from '../../ui/format';
import { describeEvent } from '../events';
import { followJob } from '../follow-job';

/**
 * `schedule show <job_id> --follow`: the job's events as they happen, then the settled job
 * (under --json: one JSON object per line, the job last). Every time in the post's zone, the
 * events' as the table's (one zone on the screen, not a mix with UTC).
 */
export async function scheduleShowFollow(ctx: Ctx, jobId: string): Promise<void> {
  const post = await followJob(ctx, jobId, (current, event) => {
    if (!event) return;
    if (ctx.log.json) ctx.io.stdout.write(`${JSON.stringify(event)}\n`);
    else ctx.log.line(describeEvent(ctx, event, (iso) => timeToSecond(iso, current.timezone)));
  });
  if (ctx.log.json) ctx.io.stdout.write(`${JSON.stringify(post)}\n`);
  else ctx.log.result(post, () => renderPost(ctx.log, post));
}
