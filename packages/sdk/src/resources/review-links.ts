import type { ReviewLink, ReviewLinkCreated, ReviewLinkCreateRequest } from '@socialpub/core';
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
    return this.transport.request({ method: 'POST', path: '/review-links', body: params, schema: (s) => s.ReviewLinkCreatedSchema }, options);
  }

  /** GET /review-links: the caller's links, newest first, with their status (never their token). */
  async list(options?: RequestOptions): Promise<ReviewLink[]> {
    return (await this.transport.request({ method: 'GET', path: '/review-links', schema: (s) => s.ReviewLinkListSchema }, options)).data;
  }

  /** DELETE /review-links/{id}: the link is refused (410) from now on. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.request({ method: 'DELETE', path: `/review-links/${encodeURIComponent(id)}`, schema: (s) => s.NoContentSchema }, options);
  }
}
