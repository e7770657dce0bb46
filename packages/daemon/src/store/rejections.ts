import type { DB } from './database';

/** Why a job was rejected, and through what: `api`, `mcp`, `cli` (the request's source) or `review_link`. */
export interface Rejection {
  reason: string | null;
  source: string;
  reviewLinkId: string | null;
  rejectedAt: number;
}

export type RejectionsRepository = ReturnType<typeof createRejectionsRepository>;

/** One row per rejected job (a job is rejected once: only pending targets are). */
export function createRejectionsRepository(db: DB) {
  const upsert = db.prepare(
    `INSERT INTO job_rejections (job_id, reason, source, review_link_id, rejected_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET reason = excluded.reason, source = excluded.source, review_link_id = excluded.review_link_id, rejected_at = excluded.rejected_at`,
  );
  const byJob = db.prepare<[string], { reason: string | null; source: string; review_link_id: string | null; rejected_at: number }>(
    'SELECT reason, source, review_link_id, rejected_at FROM job_rejections WHERE job_id = ?',
  );
  const many = db.prepare<[string], { job_id: string; reason: string | null; source: string; review_link_id: string | null; rejected_at: number }>(
    'SELECT job_id, reason, source, review_link_id, rejected_at FROM job_rejections WHERE job_id IN (SELECT value FROM json_each(?))',
  );
  const toRejection = (r: { reason: string | null; source: string; review_link_id: string | null; rejected_at: number }): Rejection => ({
    reason: r.reason,
    source: r.source,
    reviewLinkId: r.review_link_id,
    rejectedAt: r.rejected_at,
  });
  return {
    record(jobId: string, r: Rejection): void {
      upsert.run(jobId, r.reason, r.source, r.reviewLinkId, r.rejectedAt);
    },
    get(jobId: string): Rejection | null {
      const r = byJob.get(jobId);
      return r ? toRejection(r) : null;
    },
    /** `get` for a page of jobs in one statement (jobs never rejected are absent). */
    getMany(jobIds: readonly string[]): Map<string, Rejection> {
      return new Map(jobIds.length === 0 ? [] : many.all(JSON.stringify(jobIds)).map((r) => [r.job_id, toRejection(r)]));
    },
  };
}
