import { ROUTES, type InboxItem, type InboxItemResponse, type InboxList, type InboxRefreshResponse, type InboxReplyResponse, type InboxReplyState, type InboxStatus, type Platform } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

/** Filters of `inbox.list()`. */
export interface InboxListParams {
  platform?: Platform;
  status?: InboxStatus;
  job_id?: string;
  /** Only comments with a reply of ours in this state (`pending_approval`: waiting for a person). */
  reply_state?: InboxReplyState;
  limit?: number;
  cursor?: string;
}

/** Comments and replies under your published posts, and your replies to them (docs/api.md "Inbox"). */
export class Inbox extends Resource {
  /** GET /inbox: one page, newest first by `created_at` (when written) (`{ items, unread, next_cursor }`). */
  list(params: InboxListParams = {}, options?: RequestOptions): Promise<InboxList> {
    return this.transport.call(ROUTES['inbox.list'], { query: params }, options);
  }

  /** Every item of every page from `params.cursor` on, fetched as the loop reaches them. */
  async *all(params: Omit<InboxListParams, 'cursor'> = {}, options?: RequestOptions): AsyncGenerator<InboxItem> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...params, ...(cursor ? { cursor } : {}) }, options);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** POST /inbox/refresh: reads your published posts' comments now. */
  refresh(options?: RequestOptions): Promise<InboxRefreshResponse> {
    return this.transport.call(ROUTES['inbox.refresh'], {}, options);
  }

  /** POST /inbox/{id}/read. */
  markRead(id: string, options?: RequestOptions): Promise<InboxItemResponse> {
    return this.transport.call(ROUTES['inbox.read'], { params: { id } }, options);
  }

  /** POST /inbox/{id}/hide. */
  hide(id: string, options?: RequestOptions): Promise<InboxItemResponse> {
    return this.transport.call(ROUTES['inbox.hide'], { params: { id } }, options);
  }

  /**
   * POST /inbox/{id}/reply: queued (or held for approval), sent once; `comment.replied` says
   * it is out. An Idempotency-Key is made per call when not given and resent on retries, so
   * a retried call never makes a second reply; pass your own to be safe across restarts.
   */
  reply(id: string, text: string, options?: RequestOptions): Promise<InboxReplyResponse> {
    return this.transport.call(ROUTES['inbox.reply'], { params: { id }, body: { text } }, options);
  }

  /** POST /inbox/replies/{id}/approve: a held reply goes out once. */
  approveReply(replyId: string, options?: RequestOptions): Promise<InboxReplyResponse> {
    return this.transport.call(ROUTES['inbox.approve_reply'], { params: { id: replyId } }, options);
  }

  /** POST /inbox/replies/{id}/reject: a held reply is declined; nothing is sent. */
  rejectReply(replyId: string, options?: RequestOptions): Promise<InboxReplyResponse> {
    return this.transport.call(ROUTES['inbox.reject_reply'], { params: { id: replyId } }, options);
  }

  /** DELETE /inbox/replies/{id}: a sent reply of ours deleted from the network (it stays listed, with `deleted_at`). */
  deleteReply(replyId: string, options?: RequestOptions): Promise<InboxReplyResponse> {
    return this.transport.call(ROUTES['inbox.delete_reply'], { params: { id: replyId } }, options);
  }
}
