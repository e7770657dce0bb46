import { formatInstant, type ApprovalEntry, type PostComment } from '@socialpub/core';
import type { ApprovalRecord, CommentRecord } from '../store/review-history';

/** A post's approval history and comment thread as the API shows them (`approvals`, `comments`). */
export interface PostReview {
  approvals: readonly ApprovalRecord[];
  comments: readonly CommentRecord[];
}

export const NO_REVIEW: PostReview = Object.freeze({ approvals: [], comments: [] });

export function presentApproval(a: ApprovalRecord): ApprovalEntry {
  return {
    action: a.action,
    by: a.by,
    source: a.source,
    ...(a.reviewLinkId ? { review_link_id: a.reviewLinkId } : {}),
    at: formatInstant(a.at),
    version: a.version,
    comment: a.comment,
  };
}

export function presentComment(c: CommentRecord): PostComment {
  return {
    id: c.id,
    body: c.body,
    by: c.by,
    source: c.source,
    ...(c.reviewLinkId ? { review_link_id: c.reviewLinkId } : {}),
    at: formatInstant(c.at),
    version: c.version,
  };
}
