import type { Ctx } from '../../context';

/**
 * `socialpub schedule show <job_id> [--follow]`. Without --follow it is one read, run by the
 * quick path too (quick-read.ts): the table's code (ui/format, the time zone library) is
 * loaded only to print one, never under --json, as `status` does; following loads its own.
 */
export async function scheduleShow(ctx: Ctx, { jobId, follow = false }: { jobId: string; follow?: boolean }): Promise<void> {
  if (follow) return (await import('./show-follow')).scheduleShowFollow(ctx, jobId);
  const client = await ctx.client();
  const { post } = await client.scheduled.get(jobId);
  await ctx.log.resultWith(post, () => import('../../ui/format'), ({ renderPost }) => renderPost(ctx.log, post));
}
