import { deriveJobStatus, formatInstant, wallTimeOf, type Series } from '@socialpub/core';
import type { SeriesRecord } from '../store/series';
import type { Store } from '../store/store';

/** How many upcoming occurrences a series shows. */
export const NEXT_OCCURRENCES_SHOWN = 5;

/** A series as the API shows it, with its next occurrences not yet due and their jobs. */
export function presentSeries(store: Store, s: SeriesRecord, now: number): Series {
  const jobs = new Map(store.jobTimes.seriesJobs(s.id).map((j) => [j.occurrence, j.jobId]));
  const next: Series['next_occurrences'] = [];
  s.occurrences.forEach((at, i) => {
    if (at <= now || next.length >= NEXT_OCCURRENCES_SHOWN) return;
    const jobId = jobs.get(i + 1) ?? null;
    const job = jobId ? store.jobs.get(jobId) : null;
    next.push({
      occurrence: i + 1,
      scheduled_for: formatInstant(at),
      scheduled_local: wallTimeOf(at, s.timezone),
      job_id: jobId,
      status: job ? deriveJobStatus(job.targets.map((t) => t.status)) : s.status === 'cancelled' ? 'cancelled' : 'planned',
    });
  });
  return {
    series_id: s.id,
    status: s.status,
    rrule: s.rrule,
    count: s.count,
    until: s.until === null ? null : formatInstant(s.until),
    timezone: s.timezone,
    caption: s.template.caption,
    platforms: s.template.platforms,
    total: s.occurrences.length,
    created: s.created,
    next_occurrences: next,
    created_at: formatInstant(s.createdAt),
  };
}
