import { SeriesIdQuerySchema, type SeriesCancelResponse, type SeriesListResponse, type SeriesResponse } from '@socialpub/core';
import { Hono, type Context } from 'hono';
import { cancelSeries } from '../../jobs/cancel-series';
import type { SeriesRecord } from '../../store/series';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, invalid, issuesToDetails } from '../errors';
import { presentSeries } from '../present-series';
import { rateClass } from '../middleware/rate-limit';

/** GET and DELETE /content/series: recurring posts, their next occurrences, cancelling a whole series. */
export function seriesRoutes(deps: RouteDeps) {
  const { store, clock, scheduler } = deps;

  function ownSeries(c: Context<AppEnv>): SeriesRecord {
    const parsed = SeriesIdQuerySchema.safeParse({ series_id: c.req.query('series_id') });
    if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
    const id = parsed.data.series_id;
    const s = store.series.get(id);
    if (!s) throw new ApiError('not_found', `no series ${id}`);
    if (s.userId !== c.get('user').id) throw new ApiError('forbidden', `series ${id} belongs to another user`);
    return s;
  }

  return new Hono<AppEnv>()
    .get('/', rateClass('series'), (c) => {
      const now = clock.now();
      if (c.req.query('series_id') !== undefined) {
        const one: SeriesResponse = { success: true, series: presentSeries(store, ownSeries(c), now) };
        return c.json(one, 200);
      }
      const body: SeriesListResponse = { success: true, series: store.series.list(c.get('user').id).map((s) => presentSeries(store, s, now)) };
      return c.json(body, 200);
    })
    .delete('/', rateClass('series'), async (c) => {
      const s = ownSeries(c);
      const { jobs, targets } = await cancelSeries(store, s.id, clock.now());
      if (targets.length > 0) scheduler.targetsChanged(targets);
      const body: SeriesCancelResponse = {
        success: true,
        message: `Cancelled series ${s.id}${jobs.length > 0 ? ` and ${jobs.length} scheduled occurrence${jobs.length === 1 ? '' : 's'}` : ''}`,
        series_id: s.id,
        status: 'cancelled',
        cancelled_jobs: jobs,
      };
      return c.json(body, 200);
    });
}
