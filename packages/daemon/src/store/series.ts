import type { PostSource, PublishRequest } from '@socialpub/core';
import type { DB } from './database';

export type SeriesStatus = 'active' | 'finished' | 'cancelled';

export interface SeriesRecord {
  id: string;
  userId: string;
  rrule: string;
  count: number | null;
  until: number | null;
  timezone: string;
  startAt: number;
  /** The publish request every occurrence is made from (its scheduled_for is replaced per occurrence). */
  template: PublishRequest;
  /** How the series was created: every occurrence's job records it. */
  source: PostSource;
  /** Every occurrence, epoch ms, in time order. */
  occurrences: number[];
  /** How many occurrences have their job (always the first ones). */
  created: number;
  status: SeriesStatus;
  nextAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: string;
  user_id: string;
  rrule: string;
  count: number | null;
  until: number | null;
  timezone: string;
  start_at: number;
  template: string;
  source: PostSource;
  occurrences: string;
  created: number;
  status: SeriesStatus;
  next_at: number | null;
  created_at: number;
  updated_at: number;
}

const toSeries = (r: Row): SeriesRecord => ({
  id: r.id,
  userId: r.user_id,
  rrule: r.rrule,
  count: r.count,
  until: r.until,
  timezone: r.timezone,
  startAt: r.start_at,
  template: JSON.parse(r.template) as PublishRequest,
  source: r.source,
  occurrences: JSON.parse(r.occurrences) as number[],
  created: r.created,
  status: r.status,
  nextAt: r.next_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export type NewSeries = Omit<SeriesRecord, 'created' | 'status' | 'nextAt' | 'updatedAt'>;
export type SeriesRepository = ReturnType<typeof createSeriesRepository>;

/** Recurring posts: the rule, the template and how far its jobs have been created. */
export function createSeriesRepository(db: DB) {
  const insert = db.prepare(
    `INSERT INTO series (id, user_id, rrule, count, until, timezone, start_at, template, source, occurrences, created, status, next_at, created_at, updated_at)
     VALUES (@id, @userId, @rrule, @count, @until, @timezone, @startAt, @template, @source, @occurrences, 0, 'active', @nextAt, @createdAt, @createdAt)`,
  );
  const one = db.prepare<[string], Row>('SELECT * FROM series WHERE id = ?');
  const ofUser = db.prepare<[string], Row>('SELECT * FROM series WHERE user_id = ? ORDER BY created_at, id');
  const due = db.prepare<[number], Row>("SELECT * FROM series WHERE status = 'active' AND next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, id");
  const progress = db.prepare<[number, SeriesStatus, number | null, number, string, number]>(
    "UPDATE series SET created = ?, status = ?, next_at = ?, updated_at = ? WHERE id = ? AND status = 'active' AND created = ?",
  );
  const cancel = db.prepare<[number, string]>("UPDATE series SET status = 'cancelled', next_at = NULL, updated_at = ? WHERE id = ? AND status <> 'cancelled'");
  return {
    create(s: NewSeries): void {
      insert.run({ ...s, template: JSON.stringify(s.template), occurrences: JSON.stringify(s.occurrences), nextAt: s.occurrences[0] ?? null });
    },
    get(id: string): SeriesRecord | null {
      const r = one.get(id);
      return r ? toSeries(r) : null;
    },
    list(userId: string): SeriesRecord[] {
      return ofUser.all(userId).map(toSeries);
    },
    /** Active series with an occurrence to create at or before `until`. */
    due(until: number): SeriesRecord[] {
      return due.all(until).map(toSeries);
    },
    /** Records that the first `created` occurrences have jobs; compare-and-set on the count seen before. */
    advance(s: SeriesRecord, created: number, now: number): boolean {
      const next = s.occurrences[created] ?? null;
      return progress.run(created, next === null ? 'finished' : 'active', next, now, s.id, s.created).changes === 1;
    },
    cancel(id: string, now: number): boolean {
      return cancel.run(now, id).changes === 1;
    },
  };
}
