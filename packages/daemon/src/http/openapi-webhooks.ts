import { EVENT_DATA_SCHEMAS, EVENT_TYPES, eventComponentId, WEBHOOK_TEST_EVENT } from '@socialpub/core';
import { json, ref, type Json } from './openapi-parts';

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
