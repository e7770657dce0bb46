import type { MediaItem, PublishContext, PublishOutcome } from '../../adapter';

/** One thread part to post: its number in the chain (the post is part 1), text and media. */
export interface PartToPost {
  part: number;
  caption: string;
  media: MediaItem[];
  /**
   * To be awaited just before the request that creates the part (after media uploads):
   * checkpoints that from here on the part may exist.
   */
  sending(): Promise<void>;
}

/** Something posted after the post: its id and public URL (null when the platform gives none). */
export interface PostedRef {
  id: string;
  url: string | null;
}

/**
 * What a platform does for a reply chain and a first comment, beside its post. Both run
 * after the post exists and are called once per part / comment (the runner checkpoints
 * around them).
 */
export interface ReplyPoster {
  /** Posts one part as a reply to `parentId` (twitter, threads). */
  reply?(ctx: PublishContext, parentId: string, part: PartToPost): Promise<PostedRef>;
  /**
   * true when a reply whose answer was lost may simply be posted again because the
   * platform itself dedupes (Threads: the reply's container is checkpointed and a
   * published container is never published twice). false: such a part needs review.
   */
  replyResumable?: boolean;
  /**
   * true when a comment whose answer was lost may be asked for again because the platform
   * finds it or dedupes it instead of posting it twice (Bluesky: the comment's record key is
   * fixed; Mastodon: the same Idempotency-Key). false: such a comment is reported as
   * interrupted.
   */
  commentResumable?: boolean;
  /** Posts the first comment under the post (a self-reply on twitter, threads, bluesky and mastodon). */
  comment?(ctx: PublishContext, post: PublishOutcome, text: string): Promise<PostedRef>;
}
