import type { Post } from '@socialpub/core';
import type { Ctx } from '../../context';

export interface ScheduleListOptions {
  status: string;
  /** At most this many jobs (default 50); pages of up to 200 are fetched until there. */
  limit?: number | undefined;
  /** Every job, however many pages. */
  all?: boolean | undefined;
  /** Continue after a previous listing (its next_cursor). */
  cursor?: string | undefined;
}

const PAGE_MAX = 200;
export const LIST_DEFAULT = 50;

/**
 * `socialpub schedule list`: jobs ordered by time, as a table or JSON. Page sizes are
 * chosen so the last page ends exactly at the limit, so its next_cursor continues the
 * listing (`--cursor`).
 */
export async function scheduleList(ctx: Ctx, { status, limit, all, cursor }: ScheduleListOptions): Promise<void> {
  const client = await ctx.client();
  const want = all ? Number.POSITIVE_INFINITY : (limit ?? LIST_DEFAULT);
  const posts: Post[] = [];
  let next: string | null = cursor ?? null;
  do {
    const page = await client.scheduled.list({ status: status as never, limit: Math.min(want - posts.length, PAGE_MAX), ...(next ? { cursor: next } : {}) });
    posts.push(...page.posts);
    next = page.next_cursor;
  } while (next !== null && posts.length < want);

  await ctx.log.resultWith({ posts, next_cursor: next }, () => import('../../ui/format'), ({ shortTime, targetsShown, truncate }) => [
    ...ctx.log.table(
      posts,
      [
        { header: 'JOB', value: (p) => p.job_id },
        { header: 'STATUS', value: (p) => p.status, style: (s) => ctx.log.status(s) },
        { header: 'WHEN', value: (p) => shortTime(p.scheduled_for ?? p.targets[0]?.scheduled_for, p.timezone) },
        { header: 'TARGETS', value: (p) => targetsShown(p.targets) },
        { header: 'CAPTION', value: (p) => truncate(p.caption, 40) },
      ],
      status === 'all' ? 'no jobs yet: publish one with `socialpub publish`' : `no ${status} jobs`,
    ),
    ...(next ? [ctx.log.dim(`more: --limit N, --all, or --cursor ${next}`)] : []),
  ]);
}
