import type { Store } from '../store/store';

/**
 * Stops a series and cancels every occurrence job not yet started, in one durable
 * transaction. Returns the jobs that had something cancelled and the targets to reschedule.
 */
export async function cancelSeries(store: Store, seriesId: string, now: number): Promise<{ jobs: string[]; targets: string[] }> {
  return store.commits.durable(() => {
    store.series.cancel(seriesId, now);
    const jobs: string[] = [];
    const targets: string[] = [];
    for (const j of store.jobTimes.seriesJobs(seriesId)) {
      const ids = store.jobs.cancel(j.jobId, now);
      if (ids.length > 0) jobs.push(j.jobId);
      targets.push(...ids);
    }
    return { jobs, targets };
  });
}
