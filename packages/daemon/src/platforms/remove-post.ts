import type { ContentType } from '@socialpub/core';
import type { CallContext, Credentials } from './adapter';

/** What the platform answered to deleting one remote object. */
export type DeleteAnswer = 'deleted' | 'already_gone';

/** A published target as a take-down sees it. */
export interface PublishedTarget {
  type: ContentType;
  postId: string;
  /** The adapter's checkpoint of the publish (stories, parts, comments live there). */
  checkpoint: Record<string, unknown>;
}

/**
 * How one platform takes posts down (docs/reference/platforms.md §12): each platform folder's
 * `remove.ts`, made by its module's `deletion.createRemover`. Calls throw the publisher's
 * errors (platforms/errors.ts): PermanentError when the platform refuses,
 * RetryableError / RateLimitedError when it cannot answer now, OutcomeUnknownError when a
 * DELETE went out and no answer came back, AuthExpiredError when the connection is dead.
 */
export interface PostRemover {
  /** Why this target cannot be taken down on this connection (a login kind, a content type), or null. */
  refusal(credentials: Credentials, target: PublishedTarget): string | null;
  /**
   * Every remote object to delete for the target, in deletion order, the post itself last.
   * Today the post (and each story of a multi-story target); reply-chain parts and first
   * comments join this list where their ids are checkpointed.
   */
  remoteIds(target: PublishedTarget): string[];
  /** Deletes one remote object. A platform answer that it does not exist is `already_gone`. */
  deletePost(ctx: CallContext, remoteId: string): Promise<DeleteAnswer>;
  /** Whether the object still exists (asked after a deletion whose outcome is unknown). */
  postExists(ctx: CallContext, remoteId: string): Promise<boolean>;
}
