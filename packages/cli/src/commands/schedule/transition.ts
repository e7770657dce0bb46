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
  const message = String(res.message);
  // The daemon's message usually names the job already; say the id once.
  const suffix = message.includes(jobId) ? '' : ` ${ctx.log.dim(`(${jobId})`)}`;
  ctx.log.result(data, () => `${ctx.log.green('✔')} ${message}${suffix}`);
}
