import { SCHEMAS } from '@socialpub/core';
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
