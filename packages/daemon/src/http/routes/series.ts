import type { Routes, SeriesCancelResponse, SeriesListResponse, SeriesResponse } from '@socialpub/core';
import { cancelSeries } from '../../jobs/cancel-series';
import type { SeriesRecord } from '../../store/series';
import type { RouteDeps } from '../deps';
import { ApiError } from '../errors';
import { presentSeries } from '../present-series';
import type { RouteHandlers } from '../route-table/mount-route';

/** GET and DELETE /content/series (declared in core's route table): recurring posts, their next occurrences, cancelling a whole series. */
export function seriesHandlers(deps: RouteDeps): RouteHandlers<Routes, 'series.list' | 'series.cancel'> {
  const { store, clock, scheduler } = deps;

  function ownSeries(userId: string, id: string): SeriesRecord {
    const s = store.series.get(id);
    if (!s) throw new ApiError('not_found', `no series ${id}`);
    if (s.userId !== userId) throw new ApiError('forbidden', `series ${id} belongs to another user`);
    return s;
  }

  return {
    'series.list': ({ query }, c): SeriesListResponse | SeriesResponse => {
      const now = clock.now();
      const userId = c.get('user').id;
      if (query.series_id !== undefined) return { success: true, series: presentSeries(store, ownSeries(userId, query.series_id), now) };
      return { success: true, series: store.series.list(userId).map((s) => presentSeries(store, s, now)) };
    },
    'series.cancel': async ({ query }, c): Promise<SeriesCancelResponse> => {
      const s = ownSeries(c.get('user').id, query.series_id);
      const { jobs, targets } = await cancelSeries(store, s.id, clock.now());
      if (targets.length > 0) scheduler.targetsChanged(targets);
      return {
        success: true,
        message: `Cancelled series ${s.id}${jobs.length > 0 ? ` and ${jobs.length} scheduled occurrence${jobs.length === 1 ? '' : 's'}` : ''}`,
        series_id: s.id,
        status: 'cancelled',
        cancelled_jobs: jobs,
      };
    },
  };
}
