import {
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  type WebhookCreateRequest,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookUpdateRequest,
} from '@socialpub/core';
import { z } from 'zod';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

const One = z.object({ success: z.literal(true), webhook: WebhookEndpointSchema });
const Many = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointSchema) });
const Deliveries = z.object({ success: z.literal(true), deliveries: z.array(WebhookDeliverySchema) });
const Queued = z.object({ success: z.literal(true), message: z.string(), delivery_id: z.string() });
const Done = z.object({ success: z.literal(true), message: z.string() });

const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export class Webhooks extends Resource {
  /** POST /webhooks: the endpoint with its `secret` (whsec_…), shown this once. */
  async create(params: WebhookCreateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'POST', path: '/webhooks', body: params, schema: One }, options)).webhook;
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (await this.transport.request({ method: 'GET', path: '/webhooks', schema: Many }, options)).webhooks;
  }

  async get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'GET', path: path(id), schema: One }, options)).webhook;
  }

  /** PATCH /webhooks/{id}: url, event_types, description, enabled, rotate_secret (the new secret is in the answer). */
  async update(id: string, params: WebhookUpdateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'PATCH', path: path(id), body: params, schema: One }, options)).webhook;
  }

  async delete(id: string, options?: RequestOptions): Promise<{ message: string }> {
    return this.transport.request({ method: 'DELETE', path: path(id), schema: Done }, options);
  }

  /** Queues a signed `webhook.test` delivery; returns its delivery id. */
  async test(id: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.request({ method: 'POST', path: `${path(id)}/test`, schema: Queued }, options);
  }

  /** The endpoint's deliveries, newest first, each with its attempts (status codes, timings). */
  async deliveries(id: string, params: { limit?: number; before?: string } = {}, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return (await this.transport.request({ method: 'GET', path: `${path(id)}/deliveries`, query: params, schema: Deliveries }, options)).deliveries;
  }

  /** Sends a delivery again now, with the same webhook-id. */
  async redeliver(id: string, deliveryId: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.request({ method: 'POST', path: `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, schema: Queued }, options);
  }
}
