import { z } from 'zod';
import { EVENT_TYPES } from '../event-types';
import { InstantOut } from './common';
import { EVENT_DATA_SCHEMAS, WebhookTestDataSchema } from './event-data';

export { EVENT_TYPES, type EventType } from '../event-types';

/** The payload version this daemon writes. A breaking change to any payload bumps it. */
export const EVENT_VERSION = 1;
export { MAX_WEBHOOK_ENDPOINTS } from '../extension-limits';
export const MAX_WEBHOOK_DESCRIPTION = 500;
/** A sent test event's type (not in the catalogue: only sent by POST /webhooks/test). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const EventTypeSchema = z.enum(EVENT_TYPES).meta({ id: 'EventType', description: 'An event type from the catalogue (docs/events.md).' });

const envelope = {
  id: z.string().meta({ description: 'evt_<n>: n grows with every event, in commit order.', example: 'evt_42' }),
  version: z.number().int().meta({ description: `The payload version (${EVENT_VERSION} today); a change that breaks a payload bumps it.` }),
  timestamp: InstantOut,
  job_id: z.string().nullable().meta({ description: 'The job the event is about (post.* and target.*), else null.' }),
};

/** The OpenAPI component id of a type's event: post.pending_approval -> PostPendingApprovalEvent (its data: …Data). */
export const eventComponentId = (type: string) =>
  `${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

/** The envelope around a type's data schema. */
const eventOf = <T extends string, D extends z.ZodType>(type: T, data: D, description = `A ${type} event.`) =>
  z.object({ ...envelope, type: z.literal(type), data }).meta({ id: eventComponentId(type), description });

/** One event of the catalogue per type, each with its own data schema (event-data.ts); a test checks it covers EVENT_TYPES. */
const catalogueEvents = [
  eventOf('post.accepted', EVENT_DATA_SCHEMAS['post.accepted']),
  eventOf('post.pending_approval', EVENT_DATA_SCHEMAS['post.pending_approval']),
  eventOf('post.approved', EVENT_DATA_SCHEMAS['post.approved']),
  eventOf('post.rejected', EVENT_DATA_SCHEMAS['post.rejected']),
  eventOf('post.changes_requested', EVENT_DATA_SCHEMAS['post.changes_requested']),
  eventOf('post.retimed', EVENT_DATA_SCHEMAS['post.retimed']),
  eventOf('post.cancelled', EVENT_DATA_SCHEMAS['post.cancelled']),
  eventOf('post.finished', EVENT_DATA_SCHEMAS['post.finished']),
  eventOf('post.metrics_updated', EVENT_DATA_SCHEMAS['post.metrics_updated']),
  eventOf('target.publishing', EVENT_DATA_SCHEMAS['target.publishing']),
  eventOf('target.published', EVENT_DATA_SCHEMAS['target.published']),
  eventOf('target.retrying', EVENT_DATA_SCHEMAS['target.retrying']),
  eventOf('target.failed', EVENT_DATA_SCHEMAS['target.failed']),
  eventOf('target.needs_review', EVENT_DATA_SCHEMAS['target.needs_review']),
  eventOf('target.removed', EVENT_DATA_SCHEMAS['target.removed']),
  eventOf('media.task_completed', EVENT_DATA_SCHEMAS['media.task_completed']),
  eventOf('media.task_failed', EVENT_DATA_SCHEMAS['media.task_failed']),
  eventOf('connection.expired', EVENT_DATA_SCHEMAS['connection.expired']),
  eventOf('connection.refresh_failed', EVENT_DATA_SCHEMAS['connection.refresh_failed']),
  eventOf('connection.expiring_soon', EVENT_DATA_SCHEMAS['connection.expiring_soon']),
  eventOf('webhook.endpoint_disabled', EVENT_DATA_SCHEMAS['webhook.endpoint_disabled']),
  eventOf('comment.received', EVENT_DATA_SCHEMAS['comment.received']),
  eventOf('comment.replied', EVENT_DATA_SCHEMAS['comment.replied']),
  eventOf('comment.reply_pending_approval', EVENT_DATA_SCHEMAS['comment.reply_pending_approval']),
  eventOf('comment.reply_approved', EVENT_DATA_SCHEMAS['comment.reply_approved']),
  eventOf('comment.reply_rejected', EVENT_DATA_SCHEMAS['comment.reply_rejected']),
] as const;

/** The webhook.test event (POST /webhooks/{id}/test; not in the catalogue, never in the outbox). */
export const WebhookTestEventSchema = eventOf(WEBHOOK_TEST_EVENT, WebhookTestDataSchema, 'The event of POST /webhooks/{id}/test (id evt_test).');

/**
 * One event: the body of a webhook delivery, the data of an SSE message, what MCP resource
 * notifications refer to. Discriminated on `type`; each type's `data` has its own schema.
 */
export const EventSchema = z
  .discriminatedUnion('type', [...catalogueEvents, WebhookTestEventSchema])
  .meta({ id: 'Event', description: 'One event: the body of a webhook delivery and the data of an SSE message; `type` tells which data it carries.' });
export type SocialpubEvent = z.infer<typeof EventSchema>;
/** The event of one type. */
export type SocialpubEventOf<T extends SocialpubEvent['type']> = Extract<SocialpubEvent, { type: T }>;

export const EventsQuerySchema = z
  .object({
    types: z.string().optional().meta({ description: 'Comma-separated event types (or prefixes ending in `.*`, e.g. `target.*`).' }),
    job_id: z.string().min(1).optional(),
    since: z.string().optional().meta({ description: 'Resume after this event id (as Last-Event-ID).' }),
    with_post: z
      .enum(['true', 'false'], { error: 'with_post must be true or false' })
      .optional()
      .meta({ description: "With job_id, `true`: the stream also carries the job's post as GET /content/scheduled?job_id= shows it (in the `ready` frame, and as an `event: post` frame after each batch of its events), so a wait needs no read of the scheduled-content class." }),
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
