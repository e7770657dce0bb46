import type { Ctx } from '../../context';

export interface TransitionOptions {
  action: 'cancel' | 'approve' | 'reject';
  jobId: string;
}

/** `socialpub schedule cancel|approve|reject <job_id>`. */
export async function scheduleTransition(ctx: Ctx, { action, jobId }: TransitionOptions): Promise<void> {
  const client = await ctx.client();
  const res = await client.scheduled[action](jobId);
  const { success: _ok, ...data } = res as { success: true } & Record<string, unknown>;
  ctx.log.result(data, () => `${ctx.log.green('✔')} ${String(res.message)} ${ctx.log.dim(`(${jobId})`)}`);
}
