import type { Routes } from '@socialpub/core';
import type { RouteDeps } from '../deps';
import type { RouteHandlers } from '../route-table/mount-route';

/** GET /analytics/posts, POST /analytics/refresh, GET /analytics/summary and GET /analytics/export.csv (declared in core's route table): a published post's figures per target. */
export function analyticsHandlers(deps: RouteDeps): RouteHandlers<Routes, 'analytics.posts' | 'analytics.refresh' | 'analytics.summary' | 'analytics.export'> {
  return {
    'analytics.posts': ({ query }, c) => deps.analytics.posts(c.get('user'), query.job_id),
    'analytics.refresh': ({ body }, c) => deps.analytics.refresh(c.get('user'), body.job_id),
    'analytics.summary': ({ query }, c) => deps.analytics.summary(c.get('user'), query),
    'analytics.export': ({ query }, c) => {
      const { filename, csv } = deps.analytics.exportCsv(c.get('user'), query);
      c.header('Content-Disposition', `attachment; filename="${filename}"`);
      return csv;
    },
  };
}
