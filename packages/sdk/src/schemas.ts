import { WebhookDeliverySchema, WebhookEndpointSchema } from '@socialpub/core';
import { z } from 'zod';

/**
 * The schemas answers are checked against, by name. Imported only by transport.ts's
 * loadSchemas(), with import(), so zod and the schemas are built on the first answer
 * checked, never by importing the SDK, and never by a client that does not check
 * (ClientOptions.validateResponses). A resource method picks its own:
 * `schema: (s) => s.ListResponseSchema`; a new method adds its schema here.
 */
export {
  AuthValidateResponseSchema,
  CancelResponseSchema,
  GetResponseSchema,
  HealthResponseSchema,
  ListResponseSchema,
  MediaStatusSchema,
  MediaUploadResponseSchema,
  PlatformsResponseSchema,
  PrepareResponseSchema,
  PublishResultSchema,
  QueueNextResponseSchema,
  QueueResponseSchema,
  SandboxPostsResponseSchema,
  SeriesCancelResponseSchema,
  SeriesListResponseSchema,
  SeriesResponseSchema,
  SettingsResponseSchema,
  TiktokCreatorInfoResponseSchema,
  UnpublishResponseSchema,
  UpdateResponseSchema,
  ValidateResultSchema,
  ReviewLinkCreatedSchema,
  ReviewLinkListSchema,
} from '@socialpub/core';

// The answers of /webhooks, which core describes by their parts only.
export const WebhookOneSchema = z.object({ success: z.literal(true), webhook: WebhookEndpointSchema });
export const WebhookManySchema = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointSchema) });
export const WebhookDeliveriesSchema = z.object({ success: z.literal(true), deliveries: z.array(WebhookDeliverySchema) });
export const WebhookQueuedSchema = z.object({ success: z.literal(true), message: z.string(), delivery_id: z.string() });
/** 204 No Content: the transport answers undefined without parsing (the DELETE of review links). */
export const NoContentSchema = z.undefined();
export const WebhookDoneSchema = z.object({ success: z.literal(true), message: z.string() });
