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
  return {
    record(jobId: string, r: Rejection): void {
      upsert.run(jobId, r.reason, r.source, r.reviewLinkId, r.rejectedAt);
    },
    get(jobId: string): Rejection | null {
      const r = byJob.get(jobId);
      return r ? { reason: r.reason, source: r.source, reviewLinkId: r.review_link_id, rejectedAt: r.rejected_at } : null;
    },
  };
}
