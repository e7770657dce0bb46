/**
 * The deliverer asks, after every attempt, for each active endpoint's oldest due pending
 * delivery (store/webhooks.ts `due`). Without this index that read sorted every due
 * delivery of every endpoint (or scanned an endpoint's whole kept history): with a backlog
 * of thousands it cost milliseconds per delivery and capped a receiver at tens of events
 * per second (bench/events). The partial index holds only pending rows, in id order per
 * endpoint.
 */
export const migration130 = `
CREATE INDEX webhook_messages_pending ON webhook_messages(endpoint_id, id) WHERE status = 'pending';
`;
