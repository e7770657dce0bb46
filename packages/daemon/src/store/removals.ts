import type { DB } from './database';
import { createOutboxWriter } from './outbox';
import { targetEvent, targetEventColumns, type TargetEventRow } from './state-events';

/** The last take-down of a target that did not end in `removed` (targets.removal, JSON). */
export interface TargetRemoval {
  /** failed: the platform refused (still published); unknown: sent, no answer (still published). */
  state: 'failed' | 'unknown';
  code: string;
  message: string;
  /** Epoch ms. */
  at: number;
}

export type RemovalsRepository = ReturnType<typeof createRemovalsRepository>;

/**
 * Take-down writes (jobs/takedown.ts). Compare-and-set on `published`: a target is removed
 * once; the job status (migration 100's triggers) and the `target.removed` event
 * (state-events.ts) follow in the same transaction. A take-down never finishes a job again
 * (no post.finished).
 */
export function createRemovalsRepository(db: DB) {
  const remove = db.prepare<[{ id: string; now: number }], TargetEventRow>(
    `UPDATE targets SET status = 'removed', removed_at = @now, removal = NULL, updated_at = @now WHERE id = @id AND status = 'published'
     RETURNING ${targetEventColumns()}`,
  );
  const outbox = createOutboxWriter(db);
  const note = db.prepare<[{ id: string; removal: string; now: number }]>(
    `UPDATE targets SET removal = @removal, updated_at = @now WHERE id = @id AND status = 'published'`,
  );
  const touchJob = db.prepare<[number, string]>('UPDATE jobs SET updated_at = ? WHERE id = ?');
  // The move, its event and the job's time together (a savepoint inside the caller's transaction).
  const markRemoved = db.transaction((jobId: string, targetId: string, now: number): boolean => {
    const row = remove.get({ id: targetId, now });
    if (!row) return false;
    outbox.append(targetEvent('removed', row));
    touchJob.run(now, jobId);
    return true;
  });
  const checkpoint = db.prepare<[string], { checkpoint: string }>('SELECT checkpoint FROM targets WHERE id = ?');

  return {
    /** The adapter's checkpoint of a target (the remote ids of its stories, parts, comments). */
    checkpointOf(targetId: string): Record<string, unknown> {
      const row = checkpoint.get(targetId);
      return row ? (JSON.parse(row.checkpoint) as Record<string, unknown>) : {};
    },
    /** published -> removed; false when the target is no longer published. */
    markRemoved(jobId: string, targetId: string, now: number): boolean {
      return markRemoved(jobId, targetId, now);
    },
    /** Records a take-down that failed or whose outcome is unknown; the target stays published. */
    noteProblem(jobId: string, targetId: string, removal: TargetRemoval): boolean {
      const done = note.run({ id: targetId, removal: JSON.stringify(removal), now: removal.at }).changes === 1;
      if (done) touchJob.run(removal.at, jobId);
      return done;
    },
  };
}
