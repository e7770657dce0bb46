/**
 * The API's shapes, typed from @socialpub/core (type-only imports: nothing of zod reaches
 * the bundle), plus the dashboard endpoints' answers from DASHBOARD-CONTRACT.md.
 */
import type {
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
  UnpublishResponse,
  UpdateResponse,
  ValidateResult,
  WebhookDelivery,
  WebhookEndpoint,
} from '@socialpub/core';

export type {
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

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface NewApiKey extends ApiKey {
  key: string;
}

export interface Connection {
  id: string;
  platform: Platform;
  name: string | null;
  status: string;
  sandbox: boolean;
  created_at: string;
  page?: string | null;
}

export interface PendingConnection {
  id: string;
  platform: Platform;
  pages?: { id: string; name: string }[];
  creator_info?: Record<string, unknown> | null;
}

export interface ReviewLink {
  id: string;
  url?: string;
  expires_at: string;
  job_ids: string[];
  revoked_at?: string | null;
  created_at?: string;
}

export interface ReviewDecision {
  job_id: string;
  decision: 'approve' | 'reject';
  comment?: string | null;
  decided_at?: string;
}

export interface PublicReview {
  expires_at: string;
  posts: Post[];
  decisions: ReviewDecision[];
}

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
