import { ROUTES, type SeriesCancelResponse, type SeriesListResponse, type SeriesResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class SeriesResource extends Resource {
  /** GET /content/series: every recurring post with its next occurrences. */
  list(options?: RequestOptions): Promise<SeriesListResponse> {
    return this.transport.call(ROUTES['series.list'], {}, options, 'SeriesList');
  }

  /** GET /content/series?series_id=: one series. */
  get(seriesId: string, options?: RequestOptions): Promise<SeriesResponse> {
    return this.transport.call(ROUTES['series.list'], { query: { series_id: seriesId } }, options, 'SeriesResponse');
  }

  /** DELETE /content/series?series_id=: stops the series and cancels every occurrence not yet started (one occurrence: scheduled.cancel). */
  cancel(seriesId: string, options?: RequestOptions): Promise<SeriesCancelResponse> {
    return this.transport.call(ROUTES['series.cancel'], { query: { series_id: seriesId } }, options);
  }
}
