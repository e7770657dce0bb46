import type {
  AnalyticsSummary,
  AuthValidateResponse,
  CancelResponse,
  CommentCreated,
  Connection,
  ConnectionList,
  ConnectionUpdateRequest,
  ErrorDetail,
  EventType,
  GetResponse,
  InboxList,
  InboxReplyResponse,
  InboxStatus,
  JobStatus,
  MediaStatus,
  MediaUploadResponse,
  Platform,
  PlatformsResponse,
  PostMetricsResponse,
  Post,
  PrepareResponse,
  PublishRequest,
  PublishResult,
  SandboxPostsResponse,
  SocialpubEvent,
  UnpublishResponse,
  UpdateRequest,
  UpdateResponse,
  ValidateResult,
} from '@socialpub/core';

/** Per-call options every backend method takes (the SDK's RequestOptions fit). */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  idempotencyKey?: string | undefined;
}

/** What a wait follows instead of polling: the user's events, from the moment the stream is open. */
export interface EventFollowParams {
  /** Event types, or prefixes like `target.*`. */
  types?: readonly (EventType | `${string}.*`)[];
  /** Only the events of this job. */
  jobId?: string;
  /** Ends the stream (quietly) when aborted. */
  signal?: AbortSignal;
  /** Called once the stream is open: from then on no committed event is missed, so the caller may read the state it follows. */
  onOpen?: () => void;
}

/**
 * What the tools call: the daemon's API, one method per endpoint. `@socialpub/sdk`'s
 * `SocialPub` client satisfies it as it is (stdio, `socialpub mcp`); the daemon's `/mcp`
 * endpoint gives an in-process client that calls its own routes with the caller's key,
 * so both transports run the same auth, limits and checks as the REST calls.
 *
 * Methods reject with an error carrying the API's `{ status, code, message, details,
 * retryAfter }` (the SDK's APIError, or BackendError).
 */
export interface SocialPubBackend {
  auth: { validate(options?: CallOptions): Promise<AuthValidateResponse> };
  platforms: { list(options?: CallOptions): Promise<PlatformsResponse> };
  content: {
    publish(body: PublishRequest, options?: CallOptions): Promise<PublishResult>;
    validate(body: PublishRequest, options?: CallOptions): Promise<ValidateResult>;
  };
  scheduled: {
    list(
      params: { status?: JobStatus | 'all' | undefined; limit?: number | undefined; cursor?: string | undefined },
      options?: CallOptions,
    ): PromiseLike<{ posts: Post[]; next_cursor: string | null }>;
    get(jobId: string, options?: CallOptions): Promise<GetResponse>;
    update(jobId: string, body: UpdateRequest, options?: CallOptions): Promise<UpdateResponse>;
    cancel(jobId: string, options?: CallOptions): Promise<CancelResponse>;
    approve(jobId: string, options?: CallOptions): Promise<UpdateResponse>;
    reject(jobId: string, options?: CallOptions): Promise<UpdateResponse>;
    requestChanges(jobId: string, body: { comment: string; version?: number }, options?: CallOptions): Promise<UpdateResponse>;
    comment(jobId: string, body: string, options?: CallOptions): Promise<CommentCreated>;
    unpublish(jobId: string, options?: CallOptions): Promise<UnpublishResponse>;
  };
  analytics: {
    posts(jobId: string, options?: CallOptions): Promise<PostMetricsResponse>;
    refresh(jobId: string, options?: CallOptions): Promise<PostMetricsResponse>;
    summary(params: { from?: string; to?: string; platform?: Platform }, options?: CallOptions): Promise<AnalyticsSummary>;
    /** GET /analytics/export.csv: the CSV text. */
    exportCsv(params: { job_id?: string; from?: string; to?: string; platform?: Platform }, options?: CallOptions): Promise<string>;
  };
  media: {
    prepare(body: { urls: string[] }, options?: CallOptions): Promise<PrepareResponse>;
    status(taskId: string, options?: CallOptions): Promise<MediaStatus>;
  };
  /** Comments under the user's published posts (GET /inbox) and replies to them (POST /inbox/{id}/reply). */
  inbox: {
    list(params: { platform?: Platform | undefined; status?: InboxStatus | undefined; job_id?: string | undefined; limit?: number | undefined; cursor?: string | undefined }, options?: CallOptions): Promise<InboxList>;
    reply(id: string, text: string, options?: CallOptions): Promise<InboxReplyResponse>;
  };
  sandbox: { posts(params: { platform?: Platform | undefined; limit?: number | undefined }, options?: CallOptions): Promise<SandboxPostsResponse> };
  /** The caller's accounts (several per network, by label). */
  connections: {
    list(options?: CallOptions): Promise<ConnectionList>;
    update(id: string, body: ConnectionUpdateRequest, options?: CallOptions): Promise<Connection>;
  };
  /**
   * The user's events as they commit, which the waits follow so their cost does not grow
   * with their length (issue 35): GET /events over HTTP (the SDK's `events.stream`, one
   * counted request however long it stays open), the daemon's own event hub in-process
   * (no request at all).
   */
  events: { stream(params: EventFollowParams): AsyncIterable<SocialpubEvent> };
}

/** Uploading a file from the agent's machine: only where the server runs beside the agent (stdio). */
export interface LocalFiles {
  upload(path: string, options?: CallOptions & { filename?: string | undefined }): Promise<MediaUploadResponse>;
}

/** An answer of the API that was not a success, as an in-process backend reports it. */
export class BackendError extends Error {
  override name = 'BackendError';
  readonly status: number | undefined;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(init: { status?: number | undefined; code: string; message: string; details?: ErrorDetail[] | undefined; retryAfter?: number | undefined }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
  }
}
