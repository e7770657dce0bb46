import { z } from 'zod';
import { EVENT_TYPES } from '../event-types';
import { InstantOut } from './common';

export { EVENT_TYPES, type EventType } from '../event-types';

/** The payload version this daemon writes. A breaking change to any payload bumps it. */
export const EVENT_VERSION = 1;
export { MAX_WEBHOOK_ENDPOINTS } from '../extension-limits';
export const MAX_WEBHOOK_DESCRIPTION = 500;
/** A sent test event's type (not in the catalogue: only sent by POST /webhooks/test). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const EventTypeSchema = z.enum(EVENT_TYPES).meta({ id: 'EventType', description: 'An event type from the catalogue (docs/events.md).' });

export const EventSchema = z
  .object({
    id: z.string().meta({ description: 'evt_<n>: n grows with every event, in commit order.', example: 'evt_42' }),
    type: z.string(),
    version: z.number().int(),
    timestamp: InstantOut,
    job_id: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event', description: 'One event: the body of a webhook delivery and the data of an SSE message.' });
export type SocialpubEvent = z.infer<typeof EventSchema>;

export const EventsQuerySchema = z
  .object({
    types: z.string().optional().meta({ description: 'Comma-separated event types (or prefixes ending in `.*`, e.g. `target.*`).' }),
    job_id: z.string().min(1).optional(),
    since: z.string().optional().meta({ description: 'Resume after this event id (as Last-Event-ID).' }),
  })
  .meta({ id: 'EventsQuery' });

const url = z.string({ error: 'url must be a string' }).min(1, { error: 'url must not be empty' }).max(2048, { error: 'url is longer than 2048 characters' });
const types = z.array(z.union([EventTypeSchema, z.literal('*')]), { error: 'event_types must be an array of event types' }).min(1, { error: 'give at least one event type (or "*")' });
const description = z.string().max(MAX_WEBHOOK_DESCRIPTION, { error: `description is longer than ${MAX_WEBHOOK_DESCRIPTION} characters` });

export const WebhookCreateSchema = z
  .strictObject({ url, event_types: types, description: description.optional() })
  .meta({ id: 'WebhookCreateRequest' });
export type WebhookCreateRequest = z.infer<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = z
  .strictObject({
    url: url.optional(),
    event_types: types.optional(),
    description: description.optional(),
    enabled: z.boolean().optional().meta({ description: 'true re-enables a disabled endpoint (its failures are forgotten).' }),
    rotate_secret: z.boolean().optional().meta({ description: 'true issues a new secret (shown once); the old one keeps signing for 24 h.' }),
  })
  .meta({ id: 'WebhookUpdateRequest' });
export type WebhookUpdateRequest = z.infer<typeof WebhookUpdateSchema>;

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.string()),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.string().nullable(),
    failing_since: InstantOut.nullable(),
    created_at: InstantOut,
    updated_at: InstantOut,
    secret: z.string().optional().meta({ description: 'whsec_…: only in the answer that created or rotated it.' }),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookDeliverySchema = z
  .object({
    id: z.string().meta({ description: 'The delivery (msg_…); also the webhook-id header of every attempt.' }),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(
      z.object({
        started_at: InstantOut,
        duration_ms: z.number().int(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
      }),
    ),
    next_attempt_at: InstantOut.nullable(),
    created_at: InstantOut,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
