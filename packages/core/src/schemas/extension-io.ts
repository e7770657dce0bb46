import { z } from 'zod';
import { WebhookDeliverySchema, WebhookEndpointSchema } from './events';
import { PlatformId } from './common';

// The path parameters, queries and answers of the API's extensions (queue, series, events,
// webhooks, keys, connections, review links) that the route table names
// (routes/extension-routes.ts) and that no other schema describes. Path parameters are
// plain strings: an unknown id is a 404 of the route, as it always was.

/** `{id}` of a key, connection, pending connect, review link or webhook endpoint. */
export const IdParamsSchema = z.object({ id: z.string() });
/** `{platform}` of POST /connections/{platform}/authorize (the route names an unknown one). */
export const PlatformParamsSchema = z.object({ platform: z.string() });
/** `{token}` of a review link's public routes. */
export const ReviewTokenParamsSchema = z.object({ token: z.string() });
/** `{id}` and `{delivery_id}` of POST /webhooks/{id}/deliveries/{delivery_id}/redeliver. */
export const WebhookDeliveryParamsSchema = z.object({ id: z.string(), delivery_id: z.string() });

/** GET /content/series: every series, or one with series_id. */
export const SeriesQuerySchema = z.object({
  series_id: z.string({ error: 'series_id is required' }).min(1, { error: 'series_id is required' }).optional(),
});

/** GET /webhooks/{id}/deliveries. */
export const WebhookDeliveriesQuerySchema = z.strictObject({
  limit: z.coerce.number().int({ error: 'limit must be a whole number' }).min(1, { error: 'limit must be 1 to 100' }).max(100, { error: 'limit must be 1 to 100' }).default(20),
  before: z.string().optional().meta({ description: 'Deliveries older than this one (msg_…).' }),
});

export const WebhookAnswerSchema = z
  .object({ success: z.literal(true), message: z.string().optional(), webhook: WebhookEndpointSchema })
  .meta({ id: 'WebhookAnswer', description: 'One webhook endpoint (with `secret` in the answers that created or rotated it).' });
export type WebhookAnswer = z.infer<typeof WebhookAnswerSchema>;
export const WebhookListSchema = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointSchema) }).meta({ id: 'WebhookList' });
export type WebhookList = z.infer<typeof WebhookListSchema>;
export const WebhookDeliveryListSchema = z.object({ success: z.literal(true), deliveries: z.array(WebhookDeliverySchema) }).meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
export const WebhookQueuedSchema = z.object({ success: z.literal(true), message: z.string(), delivery_id: z.string() }).meta({ id: 'WebhookQueued' });
export type WebhookQueued = z.infer<typeof WebhookQueuedSchema>;
export const WebhookDeletedSchema = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'WebhookDeleted' });
export type WebhookDeleted = z.infer<typeof WebhookDeletedSchema>;

/** POST /connections/sandbox. */
export const SandboxConnectRequestSchema = z
  .object({
    platform: PlatformId,
    label: z.string().optional().meta({ description: "The account's label (1-32 of a-z, 0-9, - and _): another account of the platform, or the one of that label connected again. Left out: the platform's default account (a first one is labelled `default`).", example: 'brand' }),
  })
  .meta({ id: 'SandboxConnectRequest' });
export type SandboxConnectRequest = z.infer<typeof SandboxConnectRequestSchema>;
/** PATCH /connections/{id}. */
export const ConnectionUpdateRequestSchema = z
  .object({
    label: z.string().optional().meta({ description: 'A new label, unique among your accounts of the platform (1-32 of a-z, 0-9, - and _).', example: 'brand' }),
    default: z.literal(true).optional().meta({ description: "true: this account becomes its platform's default (what a bare platform name in platforms means)." }),
  })
  .meta({ id: 'ConnectionUpdateRequest' });
export type ConnectionUpdateRequest = z.infer<typeof ConnectionUpdateRequestSchema>;
/** POST /connections/pending/{id}/choose (`choice` is read too, for the same id). */
export const ChooseConnectRequestSchema = z
  .object({
    page_id: z.string().optional().meta({ description: 'The id of one of the choices (the Facebook page). Required unless page_ids is given.' }),
    page_ids: z.array(z.string()).min(1).max(100).optional().meta({ description: 'Several choices, where the pending connect is `multiple` (Facebook pages, LinkedIn authors): each becomes an account of its own.' }),
  })
  .meta({ id: 'ChooseConnectRequest' });
export type ChooseConnectRequest = z.infer<typeof ChooseConnectRequestSchema>;

/** A 204 answer: no body (the transport answers undefined without parsing). */
export const NoContentSchema = z.undefined();
