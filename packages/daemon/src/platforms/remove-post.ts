import type { ContentType, TargetReplies } from '@socialpub/core';
import type { CallContext, Credentials } from './adapter';

/** What the platform answered to deleting one remote object. */
export type DeleteAnswer = 'deleted' | 'already_gone';

/** A published target as a take-down sees it. */
export interface PublishedTarget {
  type: ContentType;
  postId: string;
  /** The adapter's checkpoint of the publish (stories, parts, comments live there). */
  checkpoint: Record<string, unknown>;
  /** The thread parts and first comment the target published (the target's replies; {} when none). */
  replies: TargetReplies;
}

/**
 * The posts a target made beside its post where the platform keeps them as posts of their
 * own (a self-reply first comment, a reply chain's parts): the comment first, then the
 * parts from the last to part 2, so a take-down that stops half-way never leaves a part
 * whose parent is gone while the post is still up. The post itself (part 1) is not listed.
 */
export function replyPostIds(target: PublishedTarget): string[] {
  const comment = target.replies.comment && 'id' in target.replies.comment ? [target.replies.comment.id] : [];
  const parts = (target.replies.thread ?? [])
    .filter((p) => p.part > 1 && p.post_id !== target.postId)
    .sort((a, b) => b.part - a.part)
    .map((p) => p.post_id);
  return [...new Set([...comment, ...parts])];
}

/** Every post of the target, the post last: what a platform whose replies are posts deletes. */
export const postWithReplies = (target: PublishedTarget): string[] => [...replyPostIds(target), target.postId];

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
   * Every remote object to delete for the target, in deletion order, the post itself last:
   * the post (each story of a multi-story target), and where the platform keeps them as
   * posts of their own, the first comment and the thread's parts (postWithReplies). A
   * comment that lives under the post (Facebook, Instagram, YouTube, LinkedIn) goes with
   * the post on the platform and is not listed.
   */
  remoteIds(target: PublishedTarget): string[];
  /** Deletes one remote object. A platform answer that it does not exist is `already_gone`. */
  deletePost(ctx: CallContext, remoteId: string): Promise<DeleteAnswer>;
  /** Whether the object still exists (asked after a deletion whose outcome is unknown). */
  postExists(ctx: CallContext, remoteId: string): Promise<boolean>;
}
