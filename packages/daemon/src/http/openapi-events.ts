import { API_PREFIX, EVENT_DATA_SCHEMAS, EVENT_TYPES, eventComponentId, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_TEST_EVENT } from '@socialpub/core';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });
const ERRORS = {
  401: error('API key missing or not valid (`unauthorized`).'),
  429: error('Rate limit of the endpoint class exceeded (`rate_limited`).'),
  500: error('Internal error (`internal`).'),
};
const ID = { name: 'id', in: 'path', required: true, description: 'The endpoint (whk_…).', schema: { type: 'string' } };
const webhookAnswer = (description: string) => ({
  description,
  content: json({ type: 'object', required: ['success', 'webhook'], properties: { success: { const: true }, message: { type: 'string' }, webhook: ref('WebhookEndpoint') } }),
});
const queued = {
  description: 'Queued',
  content: json({ type: 'object', required: ['success', 'delivery_id'], properties: { success: { const: true }, message: { type: 'string' }, delivery_id: { type: 'string' } } }),
};
const mine = { 403: error('Another user\'s endpoint (`forbidden`).'), 404: error('No such endpoint or delivery (`not_found`).') };

/** The paths of the events extension (docs/events.md): the SSE stream and webhook endpoints. */
export function eventsPaths(): Record<string, Json> {
  const p = (path: string) => `${API_PREFIX}${path}`;
  return {
    [p('/events')]: {
      get: {
        operationId: 'streamEvents',
        summary: 'The caller\'s events as Server-Sent Events: from the outbox after Last-Event-ID (or `since`), then live; a comment every 15 s',
        tags: ['events'],
        parameters: [
          { name: 'types', in: 'query', required: false, description: `Comma-separated types or prefixes (\`target.*\`) from: ${EVENT_TYPES.join(', ')}.`, schema: { type: 'string' } },
          { name: 'job_id', in: 'query', required: false, description: 'Only this job\'s events.', schema: { type: 'string' } },
          { name: 'since', in: 'query', required: false, description: 'Resume after this event id (evt_<n>); Last-Event-ID wins.', schema: { type: 'string' } },
          { name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume after this event id (what EventSource sends on reconnecting).', schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'text/event-stream: `id: evt_<n>`, `event: <type>`, `data: <Event JSON>` per event; `event: ready` first; `event: gap` when older events than asked for were dropped by retention.',
            content: {
              'text/event-stream': {
                schema: { type: 'string', description: 'Each data line is an Event (components/schemas/Event): one of the …Event schemas, by `type`, with that type\'s …Data.' },
              },
            },
          },
          400: error('Unknown event type or malformed event id (`invalid_request`).'),
          ...ERRORS,
        },
      },
    },
    [p('/webhooks')]: {
      post: {
        operationId: 'createWebhook',
        summary: `Create a webhook endpoint (at most ${MAX_WEBHOOK_ENDPOINTS} per user); the answer holds its whsec_ secret, shown once`,
        tags: ['webhooks'],
        requestBody: { required: true, content: json(ref('WebhookCreateRequest')) },
        responses: {
          201: webhookAnswer('Created'),
          400: error('Invalid URL, refused address (private, loopback, metadata), plain http, unknown event type, or the per-user cap (`invalid_request`).'),
          ...ERRORS,
        },
      },
      get: {
        operationId: 'listWebhooks',
        summary: 'The caller\'s webhook endpoints (without secrets)',
        tags: ['webhooks'],
        responses: {
          200: { description: 'Success', content: json({ type: 'object', properties: { success: { const: true }, webhooks: { type: 'array', items: ref('WebhookEndpoint') } } }) },
          ...ERRORS,
        },
      },
    },
    [p('/webhooks/{id}')]: {
      get: { operationId: 'getWebhook', summary: 'One webhook endpoint', tags: ['webhooks'], parameters: [ID], responses: { 200: webhookAnswer('Success'), ...mine, ...ERRORS } },
      patch: {
        operationId: 'updateWebhook',
        summary: 'Change URL, event types, description; enable/disable; rotate the secret (the old one signs 24 h more)',
        tags: ['webhooks'],
        parameters: [ID],
        requestBody: { required: true, content: json(ref('WebhookUpdateRequest')) },
        responses: { 200: webhookAnswer('Updated (with `secret` when rotated)'), 400: error('Invalid input (`invalid_request`).'), ...mine, ...ERRORS },
      },
      delete: { operationId: 'deleteWebhook', summary: 'Delete an endpoint and its deliveries', tags: ['webhooks'], parameters: [ID], responses: { 200: { description: 'Deleted' }, ...mine, ...ERRORS } },
    },
    [p('/webhooks/{id}/test')]: {
      post: {
        operationId: 'testWebhook',
        summary: 'Queue a signed webhook.test delivery',
        tags: ['webhooks'],
        parameters: [ID],
        responses: { 202: queued, 409: error('The endpoint is disabled (`conflict`).'), ...mine, ...ERRORS },
      },
    },
    [p('/webhooks/{id}/deliveries')]: {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries, newest first, each with its attempts (status code, duration, error)',
        tags: ['webhooks'],
        parameters: [
          ID,
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'before', in: 'query', required: false, description: 'Deliveries older than this one (msg_…).', schema: { type: 'string' } },
        ],
        responses: {
          200: { description: 'Success', content: json({ type: 'object', properties: { success: { const: true }, deliveries: { type: 'array', items: ref('WebhookDelivery') } } }) },
          400: error('Invalid limit or cursor (`invalid_request`).'),
          ...mine,
          ...ERRORS,
        },
      },
    },
    [p('/webhooks/{id}/deliveries/{delivery_id}/redeliver')]: {
      post: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again now, with the same webhook-id',
        tags: ['webhooks'],
        parameters: [ID, { name: 'delivery_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 202: queued, 409: error('The endpoint is disabled or the event is no longer kept (`conflict`).'), ...mine, ...ERRORS },
      },
    },
  };
}

const signatureHeaders = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The delivery (msg_…), the same on every attempt: dedupe on it.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds of the attempt.', schema: { type: 'string' } },
  { name: 'webhook-signature', in: 'header', required: true, description: '`v1,<base64 HMAC-SHA256>` (two, space-separated, for 24 h after a rotation).', schema: { type: 'string' } },
];

/**
 * What a webhook receiver gets (OpenAPI 3.1 `webhooks`): one POST per event type, its body
 * that type's Event component (core's schemas/events.ts, data from schemas/event-data.ts),
 * signed as Standard Webhooks. The SSE stream's data lines are the same Event objects.
 */
export function eventsWebhooks(): Record<string, Json> {
  const description = (type: string) => (type === WEBHOOK_TEST_EVENT ? 'Sent only by POST /webhooks/{id}/test (id evt_test).' : (EVENT_DATA_SCHEMAS[type as keyof typeof EVENT_DATA_SCHEMAS].meta()?.description ?? type));
  return Object.fromEntries(
    [...EVENT_TYPES, WEBHOOK_TEST_EVENT].map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          summary: description(type),
          tags: ['webhooks'],
          parameters: signatureHeaders,
          requestBody: { required: true, content: json(ref(eventComponentId(type))) },
          responses: {
            '2XX': { description: 'Delivered: any 2xx ends the delivery.' },
            410: { description: 'Gone: the endpoint is disabled at once (webhook.endpoint_disabled).' },
            default: { description: 'Anything else, or no answer within 15 s: retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.' },
          },
        },
      },
    ]),
  );
}
