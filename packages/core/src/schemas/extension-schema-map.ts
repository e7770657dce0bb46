import { ApiKeyCreateRequestSchema, ApiKeyCreatedSchema, ApiKeyListSchema, ConnectAuthorizeRequestSchema, ConnectionListSchema, ConnectionSchema, PendingConnectSchema, ReviewDecisionRequestSchema, ReviewLinkCreateRequestSchema, ReviewLinkCreatedSchema, ReviewLinkListSchema, ReviewLinkPublicSchema, ReviewLinksQuerySchema } from './dashboard';
import { EventSchema, EventsQuerySchema, WebhookCreateSchema, WebhookUpdateSchema } from './events';
import {
  ChooseConnectRequestSchema,
  IdParamsSchema,
  NoContentSchema,
  PlatformParamsSchema,
  ReviewTokenParamsSchema,
  SandboxConnectRequestSchema,
  ConnectionUpdateRequestSchema,
  SeriesQuerySchema,
  WebhookAnswerSchema,
  WebhookDeletedSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookListSchema,
  WebhookQueuedSchema,
} from './extension-io';
import { DraftAnswerSchema, DraftListSchema, DraftRequestSchema } from './drafts';
import { MediaLibrarySchema } from './media';
import { InboxItemResponseSchema, InboxListSchema, InboxQuerySchema, InboxRefreshResponseSchema, InboxReplyRequestSchema, InboxReplyResponseSchema } from './inbox';
import { AnalyticsExportQuerySchema, AnalyticsRefreshRequestSchema, AnalyticsSummaryQuerySchema, AnalyticsSummarySchema, CsvTextSchema, PostMetricsResponseSchema } from './analytics';
import { SandboxFaultsPutSchema, SandboxFaultsResponseSchema } from './sandbox-faults';
import { QueueNextQuerySchema, QueueNextResponseSchema, QueueResponseSchema, QueueUpdateSchema, SeriesCancelResponseSchema, SeriesIdQuerySchema, SeriesListResponseSchema, SeriesResponseSchema } from './time-resources';

/**
 * The schemas the extensions' declarations (routes/extension-routes.ts) name, by key; part
 * of SCHEMAS (schema-map.ts), kept apart so the interface's map and this one grow without
 * touching each other. The same rules: the registry id where the schema has one, keys never
 * renamed. The events' schemas are named here by key ('Event'), so a change of EventSchema
 * reaches the SSE route's declaration, the OpenAPI document and the SDK with no other edit.
 */
export const EXTENSION_SCHEMAS = {
  // analytics
  PostMetricsResponse: PostMetricsResponseSchema,
  AnalyticsRefreshRequest: AnalyticsRefreshRequestSchema,
  AnalyticsSummaryQuery: AnalyticsSummaryQuerySchema,
  AnalyticsSummary: AnalyticsSummarySchema,
  AnalyticsExportQuery: AnalyticsExportQuerySchema,
  CsvText: CsvTextSchema,
  NoContent: NoContentSchema,
  IdParams: IdParamsSchema,
  // queue
  QueueResponse: QueueResponseSchema,
  QueueUpdate: QueueUpdateSchema,
  QueueNextQuery: QueueNextQuerySchema,
  QueueNextResponse: QueueNextResponseSchema,
  // series
  SeriesQuery: SeriesQuerySchema,
  SeriesIdQuery: SeriesIdQuerySchema,
  SeriesList: SeriesListResponseSchema,
  SeriesResponse: SeriesResponseSchema,
  SeriesCancelResponse: SeriesCancelResponseSchema,
  // events and webhooks
  Event: EventSchema,
  EventsQuery: EventsQuerySchema,
  WebhookCreateRequest: WebhookCreateSchema,
  WebhookUpdateRequest: WebhookUpdateSchema,
  WebhookDeliveryParams: WebhookDeliveryParamsSchema,
  WebhookDeliveriesQuery: WebhookDeliveriesQuerySchema,
  WebhookAnswer: WebhookAnswerSchema,
  WebhookList: WebhookListSchema,
  WebhookDeliveryList: WebhookDeliveryListSchema,
  WebhookQueued: WebhookQueuedSchema,
  WebhookDeleted: WebhookDeletedSchema,
  // keys
  ApiKeyList: ApiKeyListSchema,
  ApiKeyCreateRequest: ApiKeyCreateRequestSchema,
  ApiKeyCreated: ApiKeyCreatedSchema,
  // connections
  ConnectionList: ConnectionListSchema,
  Connection: ConnectionSchema,
  SandboxConnectRequest: SandboxConnectRequestSchema,
  ConnectionUpdateRequest: ConnectionUpdateRequestSchema,
  PlatformParams: PlatformParamsSchema,
  ConnectAuthorizeRequest: ConnectAuthorizeRequestSchema,
  PendingConnect: PendingConnectSchema,
  ChooseConnectRequest: ChooseConnectRequestSchema,
  // review links
  ReviewLinkList: ReviewLinkListSchema,
  ReviewLinksQuery: ReviewLinksQuerySchema,
  ReviewLinkCreateRequest: ReviewLinkCreateRequestSchema,
  ReviewLinkCreated: ReviewLinkCreatedSchema,
  ReviewTokenParams: ReviewTokenParamsSchema,
  ReviewLinkPublic: ReviewLinkPublicSchema,
  ReviewDecisionRequest: ReviewDecisionRequestSchema,
  // drafts
  DraftRequest: DraftRequestSchema,
  DraftAnswer: DraftAnswerSchema,
  DraftList: DraftListSchema,
  // media library
  MediaLibrary: MediaLibrarySchema,
  // sandbox faults
  SandboxFaultsRequest: SandboxFaultsPutSchema,
  SandboxFaultsResponse: SandboxFaultsResponseSchema,
  // the inbox (comments on published posts and our replies)
  InboxQuery: InboxQuerySchema,
  InboxList: InboxListSchema,
  InboxItemResponse: InboxItemResponseSchema,
  InboxReplyRequest: InboxReplyRequestSchema,
  InboxReplyResponse: InboxReplyResponseSchema,
  InboxRefreshResponse: InboxRefreshResponseSchema,
} as const;
