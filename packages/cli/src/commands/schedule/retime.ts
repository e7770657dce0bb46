import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { parseAssignments, parseWhen, scheduleValue, wallTime } from '../../time-input';
import { renderPost } from '../../ui/format';

export interface RetimeOptions {
  jobId: string;
  at?: string | undefined;
  offset: string[];
  /** IANA zone: --at without offset is a wall time there; alone, the job keeps its wall time in the new zone. */
  tz?: string | undefined;
}

/** `socialpub schedule retime <job_id> --at TIME`: offsets follow, absolute times stay (the daemon's rule). */
export async function scheduleRetime(ctx: Ctx, { jobId, at, offset, tz }: RetimeOptions): Promise<void> {
  let when = at;
  if (when === undefined && offset.length === 0 && tz === undefined) {
    when = await ctx.prompts.input('New time (ISO, "2026-12-25 10:00" local, or +2h):', '--at <time>');
  }
  const body: { scheduled_for?: string; type_schedule?: Record<string, string>; timezone?: string } = {};
  if (tz !== undefined) body.timezone = tz;
  if (when !== undefined) body.scheduled_for = tz ? wallTime(when, '--at') : parseWhen(when, '--at');
  if (offset.length) body.type_schedule = Object.fromEntries(parseAssignments(offset, '--offset', 'feed=+1h').map(([k, v]) => [k, scheduleValue(v, '--offset')]));
  if (!body.scheduled_for && !body.type_schedule && !body.timezone) throw new UsageError('nothing to change: give --at, --offset or --tz');
  const client = await ctx.client();
  const res = await client.scheduled.update(jobId, body);
  ctx.log.result(res.post, () => [ctx.log.green(res.message), '', ...renderPost(ctx.log, res.post)]);
}
