import type { ReviewAction, ReviewSource } from '@socialpub/core';
import type { DB } from './database';

/** Who did something to a post under review, and from where (a post's `approvals` and `comments`). */
export interface ReviewActor {
  /** The account email (dashboard), the key's name or prefix (a key's request); null through a review link. */
  by: string | null;
  source: ReviewSource;
  reviewLinkId: string | null;
}

export interface ApprovalRecord extends ReviewActor {
  action: ReviewAction;
  version: number;
  comment: string | null;
  at: number;
}

export interface CommentRecord extends ReviewActor {
  id: string;
  body: string;
  version: number;
  at: number;
}

export type ReviewHistoryRepository = ReturnType<typeof createReviewHistoryRepository>;

type ActorRow = { by: string | null; source: ReviewSource; review_link_id: string | null };
const actorOf = (r: ActorRow): ReviewActor => ({ by: r.by, source: r.source, reviewLinkId: r.review_link_id });

/** A post's approval history and comment thread (migration 190), oldest first. Writes go in the caller's transaction. */
export function createReviewHistoryRepository(db: DB) {
  const insertApproval = db.prepare(
    'INSERT INTO job_approvals (job_id, action, by, source, review_link_id, version, comment, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const approvalsOf = db.prepare<[string], ActorRow & { action: ReviewAction; version: number; comment: string | null; at: number }>(
    'SELECT action, by, source, review_link_id, version, comment, at FROM job_approvals WHERE job_id = ? ORDER BY id',
  );
  const insertComment = db.prepare('INSERT INTO job_comments (id, job_id, body, by, source, review_link_id, version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const commentsOf = db.prepare<[string], ActorRow & { id: string; body: string; version: number; at: number }>(
    'SELECT id, body, by, source, review_link_id, version, at FROM job_comments WHERE job_id = ? ORDER BY at, rowid',
  );
  return {
    recordApproval(jobId: string, a: ApprovalRecord): void {
      insertApproval.run(jobId, a.action, a.by, a.source, a.reviewLinkId, a.version, a.comment, a.at);
    },
    approvals(jobId: string): ApprovalRecord[] {
      return approvalsOf.all(jobId).map((r) => ({ ...actorOf(r), action: r.action, version: r.version, comment: r.comment, at: r.at }));
    },
    addComment(jobId: string, c: CommentRecord): void {
      insertComment.run(c.id, jobId, c.body, c.by, c.source, c.reviewLinkId, c.version, c.at);
    },
    comments(jobId: string): CommentRecord[] {
      return commentsOf.all(jobId).map((r) => ({ ...actorOf(r), id: r.id, body: r.body, version: r.version, at: r.at }));
    },
  };
}
