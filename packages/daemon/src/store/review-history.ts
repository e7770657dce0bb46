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
  const approvalsOfMany = db.prepare<[string], ActorRow & { job_id: string; action: ReviewAction; version: number; comment: string | null; at: number }>(
    'SELECT job_id, action, by, source, review_link_id, version, comment, at FROM job_approvals WHERE job_id IN (SELECT value FROM json_each(?)) ORDER BY job_id, id',
  );
  const commentsOfMany = db.prepare<[string], ActorRow & { job_id: string; id: string; body: string; version: number; at: number }>(
    'SELECT job_id, id, body, by, source, review_link_id, version, at FROM job_comments WHERE job_id IN (SELECT value FROM json_each(?)) ORDER BY job_id, at, rowid',
  );
  const toApproval = (r: ActorRow & { action: ReviewAction; version: number; comment: string | null; at: number }): ApprovalRecord => ({
    ...actorOf(r),
    action: r.action,
    version: r.version,
    comment: r.comment,
    at: r.at,
  });
  const toComment = (r: ActorRow & { id: string; body: string; version: number; at: number }): CommentRecord => ({ ...actorOf(r), id: r.id, body: r.body, version: r.version, at: r.at });
  const grouped = <R extends { job_id: string }, T>(rows: R[], to: (r: R) => T): Map<string, T[]> => {
    const out = new Map<string, T[]>();
    for (const r of rows) {
      const list = out.get(r.job_id);
      if (list) list.push(to(r));
      else out.set(r.job_id, [to(r)]);
    }
    return out;
  };
  return {
    recordApproval(jobId: string, a: ApprovalRecord): void {
      insertApproval.run(jobId, a.action, a.by, a.source, a.reviewLinkId, a.version, a.comment, a.at);
    },
    approvals(jobId: string): ApprovalRecord[] {
      return approvalsOf.all(jobId).map(toApproval);
    },
    /** The history of a page of jobs in two statements, by job (jobs with none are absent). */
    ofJobs(jobIds: readonly string[]): { approvals: Map<string, ApprovalRecord[]>; comments: Map<string, CommentRecord[]> } {
      if (jobIds.length === 0) return { approvals: new Map(), comments: new Map() };
      const ids = JSON.stringify(jobIds);
      return { approvals: grouped(approvalsOfMany.all(ids), toApproval), comments: grouped(commentsOfMany.all(ids), toComment) };
    },
    addComment(jobId: string, c: CommentRecord): void {
      insertComment.run(c.id, jobId, c.body, c.by, c.source, c.reviewLinkId, c.version, c.at);
    },
    comments(jobId: string): CommentRecord[] {
      return commentsOf.all(jobId).map(toComment);
    },
  };
}
