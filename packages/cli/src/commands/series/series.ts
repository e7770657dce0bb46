import type { Series } from '@socialpub/core';
import type { Ctx } from '../../context';
import { shortTime, truncate } from '../../ui/format';

function renderSeries(ctx: Ctx, s: Series): string[] {
  return [
    ...ctx.log.fields([
      ['series', ctx.log.bold(s.series_id)],
      ['status', s.status],
      ['rule', `${s.rrule}${s.count !== null ? ` (count ${s.count})` : ''}${s.until !== null ? ` (until ${shortTime(s.until, s.timezone)})` : ''}`],
      ['timezone', s.timezone],
      ['caption', truncate(s.caption, 72)],
      ['platforms', s.platforms.join(', ')],
      ['posts', `${s.created} of ${s.total} created`],
    ]),
    '',
    ...ctx.log.table(
      s.next_occurrences,
      [
        { header: '#', value: (o) => String(o.occurrence) },
        { header: 'WHEN', value: (o) => shortTime(o.scheduled_for, s.timezone) },
        { header: 'JOB', value: (o) => o.job_id ?? '-' },
        { header: 'STATUS', value: (o) => o.status, style: (v) => ctx.log.status(v) },
      ],
      'no occurrence left',
    ),
  ];
}

/** `socialpub series list`: recurring posts with their next occurrences. */
export async function seriesList(ctx: Ctx): Promise<void> {
  const { series } = await (await ctx.client()).series.list();
  ctx.log.result(series, () =>
    ctx.log.table(
      series,
      [
        { header: 'SERIES', value: (s) => s.series_id },
        { header: 'STATUS', value: (s) => s.status },
        { header: 'RULE', value: (s) => s.rrule },
        { header: 'NEXT', value: (s) => shortTime(s.next_occurrences[0]?.scheduled_for, s.timezone) },
        { header: 'POSTS', value: (s) => `${s.created}/${s.total}` },
        { header: 'CAPTION', value: (s) => truncate(s.caption, 32) },
      ],
      'no recurring posts: publish one with `socialpub publish --repeat`',
    ),
  );
}

/** `socialpub series show <id>`. */
export async function seriesShow(ctx: Ctx, { seriesId }: { seriesId: string }): Promise<void> {
  const { series } = await (await ctx.client()).series.get(seriesId);
  ctx.log.result(series, () => renderSeries(ctx, series));
}

/** `socialpub series cancel <id>`: the whole series; one occurrence is `schedule cancel <job>`. */
export async function seriesCancel(ctx: Ctx, { seriesId }: { seriesId: string }): Promise<void> {
  const res = await (await ctx.client()).series.cancel(seriesId);
  const { success: _ok, ...data } = res;
  ctx.log.result(data, () => `${ctx.log.green('✔')} ${res.message}`);
}
