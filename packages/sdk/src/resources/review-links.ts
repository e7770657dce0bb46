import { ROUTES, type ReviewLink, type ReviewLinkCreated, type ReviewLinkCreateRequest, type ReviewLinkList } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

/**
 * Review links (extension): a link for one post or several that a person without an
 * account opens to approve or reject each post with a comment (docs/dashboard.md,
 * "Security model"). The `url` is in the create answer only.
 */
export class ReviewLinks extends Resource {
  /** POST /review-links: `{ id, url, expires_at, job_ids, ... }`; 72 h unless `expires_in_hours` says otherwise. */
  async create(params: ReviewLinkCreateRequest, options?: RequestOptions): Promise<ReviewLinkCreated> {
    return this.transport.call(ROUTES['reviewLinks.create'], { body: params }, options);
  }

  /** GET /review-links: the caller's links, newest first, with their status (never their token); every page, followed by `next_cursor`. */
  async list(options?: RequestOptions): Promise<ReviewLink[]> {
    const all: ReviewLink[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listPage({ limit: 200, ...(cursor ? { cursor } : {}) }, options);
      all.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return all;
  }

  /** GET /review-links?limit=&cursor=: one page (`limit` default 50, at most 200) and the `next_cursor` of the next one. */
  async listPage(params: { limit?: number; cursor?: string } = {}, options?: RequestOptions): Promise<ReviewLinkList> {
    return this.transport.call(ROUTES['reviewLinks.list'], { query: params }, options);
  }

  /** DELETE /review-links/{id}: the link is refused (410) from now on. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.call(ROUTES['reviewLinks.revoke'], { params: { id } }, options);
  }
}
