import type { Post } from '@socialpub/core';
import type { Ctx } from '../../context';
import { shortTime, truncate } from '../../ui/format';

export interface ScheduleListOptions {
  status: string;
  /** At most this many jobs; default every job (all pages). */
  limit?: number | undefined;
}

/** `socialpub schedule list`: every job (all pages), as a table or JSON. */
export async function scheduleList(ctx: Ctx, { status, limit }: ScheduleListOptions): Promise<void> {
  const client = await ctx.client();
  const posts: Post[] = [];
  for await (const post of client.scheduled.list({ status: status as never, limit: Math.min(limit ?? 200, 200) })) {
    posts.push(post);
    if (limit !== undefined && posts.length >= limit) break;
  }
  ctx.log.result({ posts }, () =>
    ctx.log.table(
      posts,
      [
        { header: 'JOB', value: (p) => p.job_id },
        { header: 'STATUS', value: (p) => p.status, style: (s) => ctx.log.status(s) },
        { header: 'WHEN', value: (p) => shortTime(p.scheduled_for ?? p.targets[0]?.scheduled_for) },
        { header: 'TARGETS', value: (p) => p.targets.map((t) => `${t.platform}.${t.type}`).join(' ') },
        { header: 'CAPTION', value: (p) => truncate(p.caption, 40) },
      ],
      status === 'all' ? 'no jobs yet: publish one with `socialpub publish`' : `no ${status} jobs`,
    ),
  );
}
