import { ROUTES, type ReviewLink, type ReviewLinkCreated, type ReviewLinkCreateRequest } from '@socialpub/core';
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

  /** GET /review-links: the caller's links, newest first, with their status (never their token). */
  async list(options?: RequestOptions): Promise<ReviewLink[]> {
    return (await this.transport.call(ROUTES['reviewLinks.list'], {}, options)).data;
  }

  /** DELETE /review-links/{id}: the link is refused (410) from now on. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.call(ROUTES['reviewLinks.revoke'], { params: { id } }, options);
  }
}
