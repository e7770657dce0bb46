/**
 * The API's shapes, typed from @socialpub/core (type-only imports, and the zod-free event
 * catalogue at run time: nothing of zod reaches the bundle), plus the dashboard endpoints'
 * answers from DASHBOARD-CONTRACT.md.
 */
import type { ApiKeyCreated, ApiKeyListing, PendingConnect, PlatformsResponse, ReviewLinkPublic } from '@socialpub/core';

export type {
  Connection,
  Draft,
  DraftAnswer,
  DraftList,
  InboxItem,
  InboxList,
  InboxReplyResponse,
  EventType,
  MediaLibrary,
  MediaLibraryFile,
  MediaStatus,
  MediaUploadResponse,
  Platform,
  PlatformsResponse,
  Post,
  PublishRequestInput,
  PublishResult,
  QueueNextResponse,
  QueueResponse,
  ReviewDecision,
  ReviewLinkCreated,
  ReviewLink as ReviewLinkListed,
  SeriesListResponse,
  SettingsResponse,
  Target,
  TiktokCreatorInfo,
  UnpublishResponse,
  AnalyticsSummary,
  PostMetricsResponse,
  UpdateResponse,
  ValidateResult,
  WebhookDelivery,
  WebhookEndpoint,
} from '@socialpub/core';
/** Every event type the stream can carry (a refresh follows each); zod-free, so imported at run time. */
export { EVENT_TYPES } from '@socialpub/core/event-types';

export type PlatformEntry = PlatformsResponse['platforms'][number];

export interface SessionInfo {
  user: { id: string; email: string };
  csrf_token: string;
  expires_at: string;
}

/** One of GET /auth/sessions' open sessions (docs/api.md, "Sessions"). */
export interface OpenSession {
  id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  signed_in_with: 'key' | 'link';
  key_prefix: string | null;
  current: boolean;
}

export type ApiKey = ApiKeyListing;
export type NewApiKey = ApiKeyCreated;
export type PendingConnection = PendingConnect;
export type PublicReview = ReviewLinkPublic;

