import { AuthValidateResponseSchema, HealthResponseSchema, OpenApiDocumentSchema, PlatformsResponseSchema } from './account';
import { ErrorBodySchema } from './common';
import { MediaStatusSchema, MediaTaskParamsSchema, MediaUploadQuerySchema, MediaUploadResponseSchema, PrepareRequestSchema, PrepareResponseSchema } from './media';
import { PublishRequestSchema, PublishResultSchema, ValidateResultSchema } from './publish';
import { SandboxPostsQuerySchema, SandboxPostsResponseSchema } from './sandbox';
import {
  CancelResponseSchema,
  CommentCreatedSchema,
  CommentListSchema,
  CommentRequestSchema,
  GetResponseSchema,
  JobIdQuerySchema,
  ListResponseSchema,
  RejectRequestSchema,
  RequestChangesRequestSchema,
  ScheduledQuerySchema,
  UpdateRequestSchema,
  UpdateResponseSchema,
} from './scheduled';
import { UnpublishResponseSchema } from './takedown';
import { TiktokCreatorInfoQuerySchema, TiktokCreatorInfoResponseSchema } from './tiktok-creator-info';
import { SettingsResponseSchema, SettingsUpdateSchema } from './time-resources';
import { EXTENSION_SCHEMAS } from './extension-schema-map';

/**
 * The schemas the route table (routes/api-routes.ts) names, by key. A declaration says
 * `response: 'SettingsResponse'` rather than holding the schema, so the table loads without
 * zod (the SDK's light client reads it at start-up) and whoever needs the schema (the
 * daemon's mount, the OpenAPI document, the SDK's checks once loaded) looks it up here.
 * The key is the schema's registry id where it has one (`.meta({ id })`, the OpenAPI
 * component's name); otherwise a name of its own (query and path schemas). A new route adds
 * its schemas here; keys are never renamed.
 */
export const SCHEMAS = {
  Error: ErrorBodySchema,
  Health: HealthResponseSchema,
  OpenApiDocument: OpenApiDocumentSchema,
  AuthValidateResponse: AuthValidateResponseSchema,
  PublishRequest: PublishRequestSchema,
  PublishResult: PublishResultSchema,
  ValidateResult: ValidateResultSchema,
  ScheduledQuery: ScheduledQuerySchema,
  JobIdQuery: JobIdQuerySchema,
  PostList: ListResponseSchema,
  PostResponse: GetResponseSchema,
  UpdateRequest: UpdateRequestSchema,
  UpdateResponse: UpdateResponseSchema,
  CancelResponse: CancelResponseSchema,
  RejectRequest: RejectRequestSchema,
  RequestChangesRequest: RequestChangesRequestSchema,
  CommentRequest: CommentRequestSchema,
  CommentList: CommentListSchema,
  CommentCreated: CommentCreatedSchema,
  UnpublishResponse: UnpublishResponseSchema,
  PrepareRequest: PrepareRequestSchema,
  PrepareResponse: PrepareResponseSchema,
  MediaTaskParams: MediaTaskParamsSchema,
  MediaStatus: MediaStatusSchema,
  MediaUploadQuery: MediaUploadQuerySchema,
  MediaUploadResponse: MediaUploadResponseSchema,
  PlatformsResponse: PlatformsResponseSchema,
  TiktokCreatorInfoQuery: TiktokCreatorInfoQuerySchema,
  TiktokCreatorInfoResponse: TiktokCreatorInfoResponseSchema,
  SandboxPostsQuery: SandboxPostsQuerySchema,
  SandboxPostsResponse: SandboxPostsResponseSchema,
  SettingsResponse: SettingsResponseSchema,
  SettingsUpdate: SettingsUpdateSchema,
  // The extensions' schemas (extension-schema-map.ts).
  ...EXTENSION_SCHEMAS,
} as const;

/** The map's type: what a route table resolves its keys against (a test may pass its own). */
export type SchemaMap = typeof SCHEMAS;
export type SchemaKey = keyof SchemaMap;
