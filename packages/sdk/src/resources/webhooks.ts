import type { WebhookCreateRequest, WebhookDelivery, WebhookEndpoint, WebhookUpdateRequest } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';


const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export class Webhooks extends Resource {
  /** POST /webhooks: the endpoint with its `secret` (whsec_…), shown this once. */
  async create(params: WebhookCreateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'POST', path: '/webhooks', body: params, schema: (s) => s.WebhookOneSchema }, options)).webhook;
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (await this.transport.request({ method: 'GET', path: '/webhooks', schema: (s) => s.WebhookManySchema }, options)).webhooks;
  }

  async get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'GET', path: path(id), schema: (s) => s.WebhookOneSchema }, options)).webhook;
  }

  /** PATCH /webhooks/{id}: url, event_types, description, enabled, rotate_secret (the new secret is in the answer). */
  async update(id: string, params: WebhookUpdateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.request({ method: 'PATCH', path: path(id), body: params, schema: (s) => s.WebhookOneSchema }, options)).webhook;
  }

  async delete(id: string, options?: RequestOptions): Promise<{ message: string }> {
    return this.transport.request({ method: 'DELETE', path: path(id), schema: (s) => s.WebhookDoneSchema }, options);
  }

  /** Queues a signed `webhook.test` delivery; returns its delivery id. */
  async test(id: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.request({ method: 'POST', path: `${path(id)}/test`, schema: (s) => s.WebhookQueuedSchema }, options);
  }

  /** The endpoint's deliveries, newest first, each with its attempts (status codes, timings). */
  async deliveries(id: string, params: { limit?: number; before?: string } = {}, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return (await this.transport.request({ method: 'GET', path: `${path(id)}/deliveries`, query: params, schema: (s) => s.WebhookDeliveriesSchema }, options)).deliveries;
  }

  /** Sends a delivery again now, with the same webhook-id. */
  async redeliver(id: string, deliveryId: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.request({ method: 'POST', path: `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, schema: (s) => s.WebhookQueuedSchema }, options);
  }
}
