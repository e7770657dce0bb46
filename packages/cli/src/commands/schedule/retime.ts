import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { parseAssignments, parseWhen, scheduleValue } from '../../time-input';
import { renderPost } from '../../ui/format';

export interface RetimeOptions {
  jobId: string;
  at?: string | undefined;
  offset: string[];
}

/** `socialpub schedule retime <job_id> --at TIME`: offsets follow, absolute times stay (the daemon's rule). */
export async function scheduleRetime(ctx: Ctx, { jobId, at, offset }: RetimeOptions): Promise<void> {
  let when = at;
  if (when === undefined && offset.length === 0) {
    when = await ctx.prompts.input('New time (ISO, "2026-12-25 10:00" local, or +2h):', '--at <time>');
  }
  const body: { scheduled_for?: string; type_schedule?: Record<string, string> } = {};
  if (when !== undefined) body.scheduled_for = parseWhen(when, '--at');
  if (offset.length) body.type_schedule = Object.fromEntries(parseAssignments(offset, '--offset', 'feed=+1h').map(([k, v]) => [k, scheduleValue(v, '--offset')]));
  if (!body.scheduled_for && !body.type_schedule) throw new UsageError('nothing to change: give --at or --offset');
  const client = await ctx.client();
  const res = await client.scheduled.update(jobId, body);
  ctx.log.result(res.post, () => [ctx.log.green(res.message), '', ...renderPost(ctx.log, res.post)]);
}
