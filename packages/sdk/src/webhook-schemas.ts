import { WebhookDeliverySchema, WebhookEndpointSchema } from '@socialpub/core';
import { z } from 'zod';

/** The answers of /webhooks, which core describes by their parts only (loaded with schemas.ts). */
export const WebhookOneSchema = z.object({ success: z.literal(true), webhook: WebhookEndpointSchema });
export const WebhookManySchema = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointSchema) });
export const WebhookDeliveriesSchema = z.object({ success: z.literal(true), deliveries: z.array(WebhookDeliverySchema) });
export const WebhookQueuedSchema = z.object({ success: z.literal(true), message: z.string(), delivery_id: z.string() });
export const WebhookDoneSchema = z.object({ success: z.literal(true), message: z.string() });
