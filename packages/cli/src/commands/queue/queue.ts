import type { Queue, QueueNextResponse } from '@socialpub/core';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { parsePlatform } from '../../platform-name';
import { shortTime } from '../../ui/format';
import { parseSlotSpec } from './slot-spec';

function renderQueue(ctx: Ctx, q: Queue): string[] {
  return [
    ...ctx.log.fields([
      ['timezone', q.timezone],
      ['capacity', `${q.capacity} post${q.capacity === 1 ? '' : 's'} per slot`],
    ]),
    '',
    ...ctx.log.table(
      q.slots,
      [
        { header: 'DAY', value: (s) => s.day },
        { header: 'TIME', value: (s) => s.time },
        { header: 'PLATFORMS', value: (s) => s.platforms?.join(',') ?? 'any' },
        { header: 'CAPACITY', value: (s) => String(s.capacity ?? q.capacity) },
      ],
      'no slots: set them with `socialpub queue set mon-fri@09:00,13:00`',
    ),
  ];
}

/** `socialpub queue show`: the weekly posting slots. */
export async function queueShow(ctx: Ctx): Promise<void> {
  const { queue } = await (await ctx.client()).queue.get();
  ctx.log.result(queue, () => renderQueue(ctx, queue));
}

export interface QueueSetOptions {
  slots: string[];
  tz?: string | undefined;
  capacity?: number | undefined;
}

/** `socialpub queue set <DAYS@TIMES[/PLATFORMS]>...`: replaces the slots (no slots: clears them). */
export async function queueSet(ctx: Ctx, o: QueueSetOptions): Promise<void> {
  const slots = o.slots.flatMap(parseSlotSpec);
  const client = await ctx.client();
  const { queue } = await client.queue.set({ slots, ...(o.tz ? { timezone: o.tz } : {}), ...(o.capacity ? { capacity: o.capacity } : {}) });
  ctx.log.result(queue, () => [`${ctx.log.green('✔')} queue set: ${queue.slots.length} weekly slot${queue.slots.length === 1 ? '' : 's'}`, '', ...renderQueue(ctx, queue)]);
}

/** `socialpub queue next [--count N] [-p platforms]`: the next free slots, local times in the queue's zone. */
export async function queueNext(ctx: Ctx, o: { count?: number | undefined; platforms?: string | undefined }): Promise<void> {
  const platforms = o.platforms?.split(',').map((p) => p.trim()).filter(Boolean).map((p) => parsePlatform(p, '--platforms'));
  if (platforms && platforms.length === 0) throw new UsageError('--platforms names no platform');
  const res: QueueNextResponse = await (await ctx.client()).queue.next({ ...(o.count ? { count: o.count } : {}), ...(platforms ? { platforms } : {}) });
  ctx.log.result(res.slots, () =>
    ctx.log.table(
      res.slots,
      [
        { header: 'WHEN', value: (s) => shortTime(s.scheduled_for, s.timezone) },
        { header: 'SLOT', value: (s) => s.slot },
        { header: 'FREE', value: (s) => String(s.free) },
      ],
      'no free slot: set slots with `socialpub queue set`, or every slot is full',
    ),
  );
}
