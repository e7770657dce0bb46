import type { ContentType, ErrorDetail, Platform, PlatformInfo, TargetReplies, ThreadPart } from '@socialpub/core';
import type { MediaItem, ValidationMedia } from '../ports/media-item';
import type { Credentials, TokenUpdate } from '../store/credentials';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';

export type { Credentials, Logger, MediaItem, TokenUpdate, ValidationMedia };

/**
 * The contract between the publisher and a platform adapter.
 *
 * An adapter publishes one target as a sequence of steps. Every step that creates
 * something remote (a container id, an upload session, a post id) is written into the
 * checkpoint with `ctx.checkpoint.save()` *before* the next step starts, so that after a
 * crash `reconcile()` can ask the platform what happened instead of posting again.
 */
export interface PlatformAdapter {
  readonly platform: Platform;
  /**
   * Platform rules beyond the core table (caption counting, hashtags, media kinds and
   * sizes, reachability). Used by POST /content/publish and /content/validate. Returns
   * problems with paths into the publish request (e.g. `platform_captions.twitter`).
   */
  validate(input: ValidationInput): ErrorDetail[];
  /**
   * The core table as one connection states it, for platforms whose limits differ per
   * account (Mastodon: each server's own, kept in the connection's meta). The table's
   * caption and media checks and GET /platforms use it; absent: the table as it is.
   */
  infoFor?(connectionMeta: Record<string, unknown>): PlatformInfo;
  /**
   * Rules that need the account itself (e.g. TikTok's creator info), run when a request is
   * validated, accepted and PATCHed, after the other rules passed. `issues` are 400s with
   * paths into the request; `unavailable` says the account could not be asked (the request
   * is then accepted and the platform's own check before posting decides).
   */
  checkAccount?(input: AccountCheckInput): Promise<AccountCheckResult>;
  /**
   * Makes, shortly before the due time, what publishes nothing and would otherwise be made
   * at it (a Threads text container), saved in ctx.checkpoint for publish() to take up.
   * Called for a scheduled target without media, never claimed: the save is refused once
   * the target is no longer scheduled, and publish() must check that what was made still
   * fits the target (it may have been edited since). A failure here changes nothing;
   * publish() then makes it at the due time. Optional (publisher/preparer.ts).
   */
  prepare?(ctx: PublishContext): Promise<void>;
  /** Runs (or resumes, from ctx.checkpoint) the publishing sequence. Throws a PublishError subclass on failure. */
  publish(ctx: PublishContext): Promise<PublishOutcome>;
  /**
   * Tells from the checkpoint whether an interrupted attempt made the post.
   * `unknown` makes the target `needs_review`; it is never republished blindly.
   */
  reconcile(ctx: PublishContext): Promise<ReconcileResult>;
}

export interface ValidationInput {
  platform: Platform;
  type: ContentType;
  caption: string;
  media: ValidationMedia[];
  /** The daemon's public base URL, or null when it only listens locally (pull-based platforms cannot reach it). */
  publicBaseUrl: string | null;
  /** This platform's platform_options as its core schema accepted them ({} or absent when none): checked against the target's type and media. */
  options?: Record<string, unknown>;
  /** The meta of the user's connection to the platform (its server and limits), when the caller knows the user; null when not connected. */
  connectionMeta?: Record<string, unknown> | null;
}

/** What a live call on behalf of a connection needs, outside a publish too (a subset of PublishContext). */
export type AccountAccess = Pick<PublishContext, 'credentials' | 'saveTokens' | 'markConnectionExpired' | 'baseUrl' | 'clock' | 'signal' | 'log'>;

export interface AccountCheckInput {
  type: ContentType;
  media: ValidationMedia[];
  /** The platform's platform_options entry ({} when none). */
  options: Record<string, unknown>;
  account: AccountAccess;
}

export type AccountCheckResult = { issues: ErrorDetail[] } | { unavailable: string };

/**
 * Steps after the post that do not decide whether it is published (a YouTube thumbnail or
 * playlist): kept in the checkpoint under POST_STEPS_KEY, step name -> result, and shown
 * on the target as `post_steps`. Their failure never fails the target. The key's value
 * stays `followUps`: checkpoints written before the rename hold it (store/jobs.ts reads it).
 */
export const POST_STEPS_KEY = 'followUps';
export interface PostStep {
  status: 'done' | 'failed';
  /** What the step made, when it made something with an id (a playlist item). */
  id?: string;
  /** Why it failed. */
  error?: string;
}

export interface PublishOutcome {
  postId: string;
  postUrl: string | null;
  /** Epoch ms; the publisher uses its clock when absent. */
  publishedAt?: number;
}

export type ReconcileResult =
  | { state: 'published'; outcome: PublishOutcome }
  | { state: 'not_published'; reason: string }
  | { state: 'unknown'; reason: string };

export interface CheckpointStore {
  /** The adapter's remote results so far ({} on a first attempt). */
  readonly data: Record<string, unknown>;
  /** Merges `patch` into the checkpoint and commits it to SQLite before resolving. */
  save(patch: Record<string, unknown>): Promise<void>;
}

/**
 * What a call to a platform on a connection's behalf needs: publishing, and the calls made
 * outside a publish (take-downs, platforms/remove-post.ts; TikTok's creator info), which
 * build one with platforms/connection-call.ts.
 */
export type CallContext = Omit<PublishContext, 'media' | 'checkpoint' | 'target' | 'publicBaseUrl'> & { target: Pick<PublishContext['target'], 'platform'> };

/**
 * The replies a target publishes under its post (a reply chain, a first comment) and what
 * is out so far. Saving writes the target's replies (shown in GET /content/scheduled) and a
 * checkpoint patch in one statement.
 */
export interface RepliesContext {
  /** The thread's parts, in order (part 2 first). */
  thread: ThreadPart[];
  /** Each part's media, resolved like the post's ([] in reconcile, which never posts). */
  threadMedia: MediaItem[][];
  firstComment: string | null;
  readonly data: TargetReplies;
  save(patch: TargetReplies, checkpoint?: Record<string, unknown>): Promise<void>;
}

export interface PublishContext {
  target: {
    id: string;
    jobId: string;
    platform: Platform;
    type: ContentType;
    caption: string;
    /**
     * The job's platform_options for this platform ({} when none), as the core schema of the
     * platform accepted them (e.g. YoutubeOptions, TiktokOptions).
     */
    options: Record<string, unknown>;
    dueAt: number;
    /** 1 on the first attempt. */
    attempt: number;
    /** When this attempt began (epoch ms): X's reconcile looks for posts since then. */
    attemptStartedAt: number;
  };
  media: MediaItem[];
  credentials: Credentials;
  /**
   * Persists refreshed tokens atomically (access and rotated refresh token together)
   * before the caller uses them; an empty refresh token never overwrites a stored one.
   */
  saveTokens(update: TokenUpdate): Promise<void>;
  /** Marks the connection expired (a refresh failed for good); the target then fails with auth_expired. */
  markConnectionExpired(reason: string): Promise<void>;
  checkpoint: CheckpointStore;
  /** The target's replies (thread, first comment); absent when the post asked for neither. */
  replies?: RepliesContext;
  /** `https://<host>` live; the daemon's own simulator for sandbox connections. */
  baseUrl(host: string): string;
  /** The daemon's public base URL, or null. */
  publicBaseUrl: string | null;
  clock: Clock;
  signal: AbortSignal;
  log: Logger;
}
