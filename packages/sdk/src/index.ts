export { SocialPub } from './client';
export type { ClientOptions, RequestOptions } from './options';
export type { SdkClock } from './clock';
export type { WaitOptions } from './poll';
export { PostPage, PostListPromise } from './pagination';
export { SETTLED_JOB_STATUSES } from './resources/scheduled';
export { applyJobEvent } from './apply-job-event';
export type { Auth } from './resources/auth';
export type { Content } from './resources/content';
export type { Scheduled } from './resources/scheduled';
export type { Media } from './resources/media';
export type { Platforms } from './resources/platforms';
export type { Events, EventStreamParams } from './resources/events';
export type { Webhooks } from './resources/webhooks';
export type { Inbox, InboxListParams } from './resources/inbox';
export { verifyWebhook, WebhookVerificationError } from './verify-webhook';
export type { SettingsResource } from './resources/settings';
export type { QueueResource } from './resources/queue';
export type { SeriesResource } from './resources/series';
export type { AnalyticsResource } from './resources/analytics';
export type { Sandbox } from './resources/sandbox';
export {
  SocialPubError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIResponseValidationError,
  WaitTimeoutError,
} from './errors';
export type { APIErrorInit } from './errors';
export type { PublishParams, UpdateParams, ListParams, PrepareParams, SettledMediaStatus, TypeScheduleKey, UploadSource, UploadOptions } from './types';

// The contract's types and constants, re-exported so SDK users need nothing else (core is bundled, not published).
export { PLATFORMS, CONTENT_TYPES, PLATFORM_INFO, JOB_STATUSES, TARGET_STATUSES, ERROR_STATUS, EVENT_TYPES, MAX_WEBHOOK_ENDPOINTS, repeatToRrule } from '@socialpub/core';
export type {
  AccountKey,
  Platform,
  ContentType,
  JobStatus,
  TargetStatus,
  ErrorCode,
  ErrorDetail,
  PublishRequestInput,
  PublishResult,
  ValidateResult,
  Post,
  Target,
  ListResponse,
  GetResponse,
  UpdateResponse,
  CancelResponse,
  UnpublishResponse,
  TakedownTarget,
  PostMetricsResponse,
  AnalyticsSummary,
  PostMetricsTarget,
  NormalizedMetrics,
  TakedownResult,
  TiktokCreatorInfo,
  TiktokCreatorInfoResponse,
  MastodonOptions,
  ServerLimits,
  PrepareResponse,
  MediaStatus,
  MediaUploadResponse,
  PreparedFile,
  FailedFile,
  AuthValidateResponse,
  PlatformsResponse,
  HealthResponse,
  EventType,
  SocialpubEvent,
  WebhookEndpoint,
  WebhookDelivery,
  InboxItem,
  InboxList,
  InboxStatus,
  InboxReplyState,
  InboxReplyResponse,
  InboxItemResponse,
  InboxRefreshResponse,
  WebhookCreateRequest,
  WebhookUpdateRequest,
  Settings,
  SettingsResponse,
  SettingsUpdate,
  Queue,
  QueueUpdateInput,
  QueueResponse,
  QueueNextResponse,
  Series,
  SeriesListResponse,
  SeriesResponse,
  SeriesCancelResponse,
  RecurrenceInput,
  Warning,
  WeeklySlot,
  ReviewLink,
  ReviewLinkCreated,
  ReviewLinkCreateRequest,
  Connection,
  ConnectionList,
  ConnectionUpdateRequest,
  SandboxConnectRequest,
  ApiKeyListing,
  ApiKeyList,
  ApiKeyCreated,
  ApiKeyCreateRequest,
} from '@socialpub/core';
