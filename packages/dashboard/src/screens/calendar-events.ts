import type { EventInput } from '@fullcalendar/core';
import { accountName, accountTargetName } from '../lib/account-name';
import type { Post, QueueNextResponse, SeriesListResponse } from '../lib/types';

export interface CalendarFilter {
  platforms: ReadonlySet<string>;
  /** A target status, or 'all'. */
  status: string;
}

const MOVABLE = new Set(['pending_approval', 'scheduled']);

/**
 * One calendar entry per (post, due time): a post's targets that go out together are one
 * entry, placed at their time. An entry can be dragged when all of its targets may still
 * move (PATCH's rule) and the post has a base time.
 */
export function postEvents(posts: readonly Post[], filter: CalendarFilter): EventInput[] {
  const out: EventInput[] = [];
  for (const post of posts) {
    const groups = new Map<string, Post['targets']>();
    for (const t of post.targets) {
      if (!t.scheduled_for) continue;
      if (filter.platforms.size && !filter.platforms.has(t.platform)) continue;
      if (filter.status !== 'all' && t.status !== filter.status) continue;
      const g = groups.get(t.scheduled_for) ?? [];
      g.push(t);
      groups.set(t.scheduled_for, g);
    }
    for (const [time, targets] of groups) {
      const statuses = [...new Set(targets.map((t) => t.status))];
      const what = targets.map((t) => (t.type === 'tweet' || t.type === 'post' ? accountName(t) : accountTargetName(t))).join(', ');
      out.push({
        id: `${post.job_id}@${time}`,
        start: time,
        title: `${post.series_id ? '↻ ' : ''}${what}: ${post.caption.split('\n')[0]!.slice(0, 60)}`,
        classNames: ['post', ...statuses.map((s) => `st-${s}`)],
        editable: post.scheduled_for !== null && targets.every((t) => MOVABLE.has(t.status)),
        extendedProps: { jobId: post.job_id, base: post.scheduled_for, statuses },
      });
    }
  }
  return out;
}

/** The queue's next free slots, shown (not draggable) so a person sees where a queued post would go. */
export function slotEvents(next: QueueNextResponse | null): EventInput[] {
  return (next?.slots ?? []).map((s) => ({
    id: `slot@${s.scheduled_for}`,
    start: s.scheduled_for,
    title: `Free queue slot ${s.slot}${s.free > 1 ? ` (${s.free} free)` : ''}`,
    classNames: ['slot'],
    editable: false,
  }));
}

/** Occurrences of recurring series the daemon has not created yet. */
export function seriesEvents(series: SeriesListResponse | null): EventInput[] {
  const out: EventInput[] = [];
  for (const s of series?.series ?? []) {
    if (s.status !== 'active') continue;
    for (const o of s.next_occurrences) {
      if (o.job_id) continue;
      out.push({
        id: `series@${s.series_id}@${o.occurrence}`,
        start: o.scheduled_for,
        title: `↻ Repeat ${o.occurrence}/${s.total}: ${s.caption.split('\n')[0]!.slice(0, 50)}`,
        classNames: ['series'],
        editable: false,
      });
    }
  }
  return out;
}

/**
 * The new base wall time after a drag: the base's wall time in the zone moved by the drop's
 * calendar delta, in wall-clock arithmetic (a day later is the same local time, across a
 * DST change). The daemon reads it in the zone and refuses a time in a gap.
 */
export function movedWall(baseWall: { year: number; month: number; day: number; hour: number; minute: number; second: number }, delta: { years: number; months: number; days: number; milliseconds: number }): string {
  const d = new Date(Date.UTC(baseWall.year + delta.years, baseWall.month - 1 + delta.months, baseWall.day + delta.days, baseWall.hour, baseWall.minute, baseWall.second) + delta.milliseconds);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** Entries whose start falls in the visible range: FullCalendar parses only what it shows. */
export function inRange(events: EventInput[], start: Date, end: Date): EventInput[] {
  const a = start.getTime();
  const b = end.getTime();
  return events.filter((e) => {
    const t = new Date(e.start as string).getTime();
    return t >= a && t < b;
  });
}

/**
 * The month grid keeps a day readable: at most `keep` entries of a day, then one "+N more
 * posts" entry that opens that day's list. (A month of 2,000 posts would otherwise draw
 * every entry, hidden or not.) `dayOf` gives an entry's day in the calendar's zone.
 */
export function condenseDays(events: EventInput[], dayOf: (iso: string) => string, keep = 3): EventInput[] {
  const byDay = new Map<string, EventInput[]>();
  for (const e of events) {
    const day = dayOf(e.start as string);
    const list = byDay.get(day) ?? [];
    list.push(e);
    byDay.set(day, list);
  }
  const out: EventInput[] = [];
  // `order` (the calendar's first eventOrder field) puts "+N more" after the entries of its day, though it is an all-day entry.
  const first = (e: EventInput): EventInput => ({ ...e, extendedProps: { ...e.extendedProps, order: 0 } });
  for (const [day, list] of byDay) {
    if (list.length <= keep + 1) {
      out.push(...list.map(first));
      continue;
    }
    list.sort((x, y) => String(x.start).localeCompare(String(y.start)));
    out.push(...list.slice(0, keep).map(first));
    out.push({ id: `more@${day}`, start: day, allDay: true, title: `+${list.length - keep} more posts`, classNames: ['more'], editable: false, extendedProps: { day, order: 1 }, display: 'block' });
  }
  return out;
}
