import { ROUTES, type WebhookCreateRequest, type WebhookDelivery, type WebhookEndpoint, type WebhookUpdateRequest } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Webhooks extends Resource {
  /** POST /webhooks: the endpoint with its `secret` (whsec_…), shown this once. */
  async create(params: WebhookCreateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.call(ROUTES['webhooks.create'], { body: params }, options)).webhook;
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (await this.transport.call(ROUTES['webhooks.list'], {}, options)).webhooks;
  }

  async get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.call(ROUTES['webhooks.get'], { params: { id } }, options)).webhook;
  }

  /** PATCH /webhooks/{id}: url, event_types, description, enabled, rotate_secret (the new secret is in the answer). */
  async update(id: string, params: WebhookUpdateRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.transport.call(ROUTES['webhooks.update'], { params: { id }, body: params }, options)).webhook;
  }

  async delete(id: string, options?: RequestOptions): Promise<{ message: string }> {
    return this.transport.call(ROUTES['webhooks.delete'], { params: { id } }, options);
  }

  /** Queues a signed `webhook.test` delivery; returns its delivery id. */
  async test(id: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.call(ROUTES['webhooks.test'], { params: { id } }, options);
  }

  /** The endpoint's deliveries, newest first, each with its attempts (status codes, timings). */
  async deliveries(id: string, params: { limit?: number; before?: string } = {}, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return (await this.transport.call(ROUTES['webhooks.deliveries'], { params: { id }, query: params }, options)).deliveries;
  }

  /** Sends a delivery again now, with the same webhook-id. */
  async redeliver(id: string, deliveryId: string, options?: RequestOptions): Promise<{ message: string; delivery_id: string }> {
    return this.transport.call(ROUTES['webhooks.redeliver'], { params: { id, delivery_id: deliveryId } }, options);
  }
}
