/**
 * The API's shapes, typed from @socialpub/core (type-only imports: nothing of zod reaches
 * the bundle), plus the dashboard endpoints' answers from DASHBOARD-CONTRACT.md.
 */
import type {
  ApiKeyCreated,
  ApiKeyListing,
  Connection,
  EventType,
  PendingConnect,
  ReviewDecision,
  ReviewLinkCreated,
  ReviewLink as ReviewLinkListed,
  ReviewLinkPublic,
  MediaStatus,
  MediaUploadResponse,
  Platform,
  PlatformsResponse,
  Post,
  PublishRequestInput,
  PublishResult,
  QueueNextResponse,
  QueueResponse,
  SeriesListResponse,
  SettingsResponse,
  Target,
  TiktokCreatorInfo,
  UnpublishResponse,
  UpdateResponse,
  ValidateResult,
  WebhookDelivery,
  WebhookEndpoint,
} from '@socialpub/core';

export type {
  Connection,
  ReviewDecision,
  EventType,
  MediaStatus,
  MediaUploadResponse,
  Platform,
  PlatformsResponse,
  Post,
  PublishRequestInput,
  PublishResult,
  QueueNextResponse,
  QueueResponse,
  SeriesListResponse,
  SettingsResponse,
  Target,
  TiktokCreatorInfo,
  UnpublishResponse,
  UpdateResponse,
  ValidateResult,
  WebhookDelivery,
  WebhookEndpoint,
};

export type PlatformEntry = PlatformsResponse['platforms'][number];

export interface SessionInfo {
  user: { id: string; email: string };
  csrf_token: string;
  expires_at: string;
}

export type ApiKey = ApiKeyListing;
export type NewApiKey = ApiKeyCreated;
export type PendingConnection = PendingConnect;
export type PublicReview = ReviewLinkPublic;
export type { ReviewLinkCreated, ReviewLinkListed };

/** Every event type the stream can carry (a refresh follows each). */
export const EVENT_TYPES = [
  'post.accepted',
  'post.pending_approval',
  'post.approved',
  'post.rejected',
  'post.retimed',
  'post.cancelled',
  'post.finished',
  'target.publishing',
  'target.published',
  'target.retrying',
  'target.failed',
  'target.needs_review',
  'target.removed',
  'media.task_completed',
  'media.task_failed',
  'connection.expired',
  'connection.refresh_failed',
  'connection.expiring_soon',
  'webhook.endpoint_disabled',
] as const satisfies readonly EventType[];
