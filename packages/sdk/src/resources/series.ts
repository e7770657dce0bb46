import type { SeriesCancelResponse, SeriesListResponse, SeriesResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class SeriesResource extends Resource {
  /** GET /content/series: every recurring post with its next occurrences. */
  list(options?: RequestOptions): Promise<SeriesListResponse> {
    return this.transport.request({ method: 'GET', path: '/content/series', schema: (s) => s.SeriesListResponseSchema }, options);
  }

  /** GET /content/series?series_id=: one series. */
  get(seriesId: string, options?: RequestOptions): Promise<SeriesResponse> {
    return this.transport.request({ method: 'GET', path: '/content/series', query: { series_id: seriesId }, schema: (s) => s.SeriesResponseSchema }, options);
  }

  /** DELETE /content/series?series_id=: stops the series and cancels every occurrence not yet started (one occurrence: scheduled.cancel). */
  cancel(seriesId: string, options?: RequestOptions): Promise<SeriesCancelResponse> {
    return this.transport.request({ method: 'DELETE', path: '/content/series', query: { series_id: seriesId }, schema: (s) => s.SeriesCancelResponseSchema }, options);
  }
}
