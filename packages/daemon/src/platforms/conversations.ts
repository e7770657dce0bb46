import type { CallContext, CheckpointStore } from './adapter';
import type { PostedRef } from './shared/follow-ups/reply-poster';

/** A comment or reply under one of our posts, as a network's API gives it. */
export interface RemoteComment {
  /** Its id on the network (what a reply names). */
  id: string;
  /** The id it answers: our post's, or another comment's. */
  inReplyTo: string | null;
  /** The ids from our post down to this comment, the post first (the comment not included). */
  thread: string[];
  author: { name: string | null; handle: string; url: string | null };
  /** As the author wrote it, as plain text (HTML turned into text). */
  text: string;
  url: string | null;
  /** Epoch ms, as the network says. */
  createdAt: number;
  /** Written by the account that published the post (our own thread parts, first comment and replies): never an inbox item. */
  own: boolean;
}

/** What a reply is sent with: the call on the connection's behalf, the reply's own checkpoint and id. */
export interface ReplyContext extends CallContext {
  /** The reply's checkpoint (inbox_replies.checkpoint): what was sent, when, with which key. */
  checkpoint: CheckpointStore;
  /** The reply (rpl_…): the network's dedupe key is derived from it, the same on every attempt. */
  replyId: string;
}

/**
 * A network's comments, for the inbox (docs/api.md "Inbox"): each platform folder's
 * `comments.ts`, made by its module's `comments.create`. Calls throw the publisher's errors
 * (platforms/errors.ts), as a publish does.
 */
export interface CommentsClient {
  /** Every comment and reply under our post (its whole thread, our own included and marked `own`). */
  list(ctx: CallContext, postId: string): Promise<RemoteComment[]>;
  /**
   * Sends `text` as a reply to the comment, exactly once across attempts and restarts: the
   * request carries a key fixed by `ctx.replyId` that the network dedupes, or a reply whose
   * answer was lost is looked up before it is sent again (the checkpoint says it may exist).
   */
  reply(ctx: ReplyContext, to: { postId: string; commentId: string }, text: string): Promise<PostedRef>;
  /**
   * Deletes a reply of ours (`replyId`, its id on the network) from the network: every
   * network socialpub replies on lets an account delete what it wrote. A reply the network no
   * longer has is `already_gone`.
   */
  deleteReply(ctx: CallContext, reply: { postId: string; commentId: string; replyId: string }): Promise<'deleted' | 'already_gone'>;
  /** The most characters a comment holds on the network, where that is less than a post (LinkedIn: 1,250); replies over it are refused before they are queued. */
  readonly replyMaxChars?: number;
  /** Hides the comment on the network, where it lets the post's author hide replies (X); absent: the network does not (the inbox hides it alone). */
  hide?(ctx: CallContext, to: { postId: string; commentId: string }): Promise<void>;
}
