import type { DB } from './database';

/** A job's time facts beside the job: its zone, the wall time asked for, its queue slot or series. */
export interface PostTimes {
  /** The zone its times were read in; null: none applied (shown as UTC). */
  timezone: string | null;
  scheduledLocal: string | null;
  queueSlot: string | null;
  seriesId: string | null;
  occurrence: number | null;
}

interface Row {
  job_id: string;
  timezone: string | null;
  scheduled_local: string | null;
  queue_slot: string | null;
  series_id: string | null;
  occurrence: number | null;
}

const toTimes = (r: Row): PostTimes => ({
  timezone: r.timezone,
  scheduledLocal: r.scheduled_local,
  queueSlot: r.queue_slot,
  seriesId: r.series_id,
  occurrence: r.occurrence,
});

export const NO_TIMES: PostTimes = Object.freeze({ timezone: null, scheduledLocal: null, queueSlot: null, seriesId: null, occurrence: null });

export type PostTimesRepository = ReturnType<typeof createPostTimesRepository>;

export function createPostTimesRepository(db: DB) {
  const upsert = db.prepare(
    `INSERT INTO job_times (job_id, user_id, timezone, scheduled_local, queue_slot, series_id, occurrence)
     VALUES (@jobId, @userId, @timezone, @scheduledLocal, @queueSlot, @seriesId, @occurrence)
     ON CONFLICT (job_id) DO UPDATE SET timezone = excluded.timezone, scheduled_local = excluded.scheduled_local,
       queue_slot = excluded.queue_slot, series_id = excluded.series_id, occurrence = excluded.occurrence`,
  );
  const one = db.prepare<[string], Row>('SELECT * FROM job_times WHERE job_id = ?');
  const many = db.prepare<[string], Row & { job_id: string }>('SELECT * FROM job_times WHERE job_id IN (SELECT value FROM json_each(?))');
  // A queued job holds its slot while any of its targets is not cancelled.
  const taken = db.prepare<[string, number], { queue_slot: string; scheduled_for: number; n: number }>(
    `SELECT jt.queue_slot, j.scheduled_for, COUNT(*) AS n FROM job_times jt JOIN jobs j ON j.id = jt.job_id
     WHERE jt.user_id = ? AND jt.queue_slot IS NOT NULL AND j.scheduled_for > ?
       AND EXISTS (SELECT 1 FROM targets t WHERE t.job_id = j.id AND t.status <> 'cancelled')
     GROUP BY jt.queue_slot, j.scheduled_for`,
  );
  const ofSeries = db.prepare<[string], { job_id: string; occurrence: number }>(
    'SELECT job_id, occurrence FROM job_times WHERE series_id = ? ORDER BY occurrence',
  );
  return {
    set(jobId: string, userId: string, t: PostTimes): void {
      upsert.run({ jobId, userId, ...t });
    },
    get(jobId: string): PostTimes {
      const r = one.get(jobId);
      return r ? toTimes(r) : NO_TIMES;
    },
    /** `get` for a page of jobs in one statement (jobs without times are absent). */
    getMany(jobIds: readonly string[]): Map<string, PostTimes> {
      return new Map(jobIds.length === 0 ? [] : many.all(JSON.stringify(jobIds)).map((r) => [r.job_id, toTimes(r)]));
    },
    /** Posts per `<slot key>@<epoch ms>` for the user's queued jobs after `after`. */
    takenSlots(userId: string, after: number): Map<string, number> {
      return new Map(taken.all(userId, after).map((r) => [`${r.queue_slot}@${r.scheduled_for}`, r.n]));
    },
    /** The jobs of a series by occurrence. */
    seriesJobs(seriesId: string): { jobId: string; occurrence: number }[] {
      return ofSeries.all(seriesId).map((r) => ({ jobId: r.job_id, occurrence: r.occurrence }));
    },
  };
}
