/**
 * 1. The deliverer asks, after every attempt, for each active endpoint's oldest due
 *    pending delivery (store/webhooks.ts `due`). Without this index that read sorted every
 *    due delivery of every endpoint (or scanned an endpoint's whole kept history): with a
 *    backlog of thousands it cost milliseconds per delivery and capped a receiver at tens
 *    of events per second (bench/events). The partial index holds only pending rows, in id
 *    order per endpoint.
 * 2. A series records how it was created (`api`, `mcp`, `cli`), so the occurrences the
 *    daemon creates later record it too, as the first ones do. Series made before this
 *    take the source of their first job.
 */
export const migration130 = `
CREATE INDEX webhook_messages_pending ON webhook_messages(endpoint_id, id) WHERE status = 'pending';

ALTER TABLE series ADD COLUMN source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'mcp', 'cli'));
UPDATE series SET source = coalesce(
  (SELECT j.source FROM job_times t JOIN jobs j ON j.id = t.job_id WHERE t.series_id = series.id ORDER BY t.occurrence LIMIT 1),
  'api');
`;
