import { SCHEMAS, WebhookDeliverySchema, WebhookEndpointSchema } from '@socialpub/core';
import { z } from 'zod';

/**
 * The schemas answers are checked against, by name. Imported only by transport.ts's
 * loadSchemas(), with import(), so zod and the schemas are built on the first answer
 * checked, never by importing the SDK, and never by a client that does not check
 * (ClientOptions.validateResponses). A method calling a declared route (transport.call) gets
 * its schema from core's SCHEMAS through schemaOfKeys; a method of a route not yet declared
 * picks its own: `schema: (s) => s.SeriesListResponseSchema`.
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
  SandboxFaultsResponseSchema,
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

/**
 * The schema of a route's answer by its keys in core's SCHEMAS (the route table's names):
 * one schema, or any one of several (transport.call).
 */
export function schemaOfKeys(keys: readonly string[]): z.ZodType {
  const all = keys.map((key) => {
    const schema = (SCHEMAS as Readonly<Record<string, z.ZodType>>)[key];
    if (!schema) throw new TypeError(`no schema "${key}" in core's SCHEMAS`);
    return schema;
  });
  const [first, ...rest] = all;
  if (!first) throw new TypeError('a route declares no answer schema');
  return rest.length === 0 ? first : z.union([first, ...rest]);
}
