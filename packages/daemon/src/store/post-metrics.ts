import type { NormalizedMetrics, Platform } from '@socialpub/core';
import type { DB } from './database';
import { createOutboxWriter, type StoredData } from './outbox';

/** One reading of a target's figures. */
export interface MetricsSnapshot {
  collectedAt: number;
  metrics: NormalizedMetrics;
  platformMetrics: Record<string, number>;
}

/** Where a published target stands in its collection schedule. */
export interface CollectionState {
  targetId: string;
  /** How many of the schedule's ages (COLLECTION_AGES_MS) have been read or passed. */
  stage: number;
  /** When the collector reads it next; null when no reading is left. */
  nextAt: number | null;
  problem: { code: string; message: string; at: number } | null;
}

/** A target's latest reading, for the summary. */
export interface LatestReading {
  targetId: string;
  jobId: string;
  platform: Platform;
  accountKey: string;
  type: string;
  postId: string;
  publishedAt: number;
  collectedAt: number;
  metrics: NormalizedMetrics;
  platformMetrics: Record<string, number>;
}

/** A target due for a reading, with what the collector needs to read it. */
export interface DueTarget {
  targetId: string;
  jobId: string;
  userId: string;
  platform: Platform;
  /** The target's content type (tweet, feed, video…). */
  type: string;
  connectionId: string | null;
  accountKey: string;
  postId: string;
  publishedAt: number;
  stage: number;
}

interface DueRow {
  target_id: string;
  job_id: string;
  user_id: string;
  platform: string;
  type: string;
  connection_id: string | null;
  account_key: string | null;
  post_id: string;
  published_at: number;
  stage: number;
}

const dueTarget = (r: DueRow): DueTarget => ({
  targetId: r.target_id,
  jobId: r.job_id,
  userId: r.user_id,
  platform: r.platform as Platform,
  type: r.type,
  connectionId: r.connection_id,
  accountKey: r.account_key ?? r.platform,
  postId: r.post_id,
  publishedAt: r.published_at,
  stage: r.stage,
});

const DUE_COLUMNS = 'm.target_id, t.job_id, t.user_id, t.platform, t.type, t.connection_id, t.account_key, t.post_id, t.published_at, m.stage';

export type PostMetricsRepository = ReturnType<typeof createPostMetricsRepository>;

/**
 * The figures of published posts (migration 240): `post_metrics`, every reading per target
 * as a time series, and `metrics_collection`, each published target's place in the
 * collector's schedule; `analytics_pauses` (migration 260), a network's 429 to the readings. SQL in the subset both databases run (issue 34).
 */
export function createPostMetricsRepository(db: DB) {
  const outbox = createOutboxWriter(db);
  const enrol = db.prepare<[number, number, number]>(
    `INSERT INTO metrics_collection (target_id, user_id, stage, next_at)
     SELECT t.id, t.user_id, 0, t.published_at + ? FROM targets t
     LEFT JOIN metrics_collection m ON m.target_id = t.id
     WHERE t.status = 'published' AND t.published_at IS NOT NULL AND t.published_at <= ? AND t.post_id IS NOT NULL AND m.target_id IS NULL
     LIMIT ?
     ON CONFLICT (target_id) DO NOTHING`,
  );
  // Due readings, leaving out the users' platforms with a publish in flight or due by the given time: publishing has
  // them, and a burst's connections cost the collector one statement, not a look each.
  const due = db.prepare<[number, number, number], DueRow>(
    `SELECT ${DUE_COLUMNS} FROM metrics_collection m JOIN targets t ON t.id = m.target_id
     WHERE m.next_at IS NOT NULL AND m.next_at <= ? AND t.status = 'published' AND t.post_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM targets s WHERE s.user_id = t.user_id AND s.platform = t.platform
         AND (s.status = 'publishing' OR (s.status = 'scheduled' AND COALESCE(s.next_attempt_at, s.due_at) <= ?)))
     ORDER BY m.next_at, m.target_id LIMIT ?`,
  );
  const publishedOfJob = db.prepare<[string], DueRow>(
    `SELECT t.id AS target_id, t.job_id, t.user_id, t.platform, t.type, t.connection_id, t.account_key, t.post_id, t.published_at,
       CASE WHEN m.stage IS NULL THEN 0 ELSE m.stage END AS stage
     FROM targets t LEFT JOIN metrics_collection m ON m.target_id = t.id
     WHERE t.job_id = ? AND t.status = 'published' AND t.post_id IS NOT NULL AND t.published_at IS NOT NULL
     ORDER BY t.id`,
  );
  const insertSnapshot = db.prepare<[string, number, string, string]>('INSERT INTO post_metrics (target_id, collected_at, metrics, platform_metrics) VALUES (?, ?, ?, ?)');
  const upsertState = db.prepare<[string, string, number, number | null, string | null, string | null, number | null]>(
    `INSERT INTO metrics_collection (target_id, user_id, stage, next_at, problem_code, problem_message, problem_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (target_id) DO UPDATE SET stage = excluded.stage, next_at = excluded.next_at,
       problem_code = excluded.problem_code, problem_message = excluded.problem_message, problem_at = excluded.problem_at`,
  );
  const snapshotsOfJob = db.prepare<[string], { target_id: string; collected_at: number; metrics: string; platform_metrics: string }>(
    `SELECT p.target_id, p.collected_at, p.metrics, p.platform_metrics FROM post_metrics p JOIN targets t ON t.id = p.target_id
     WHERE t.job_id = ? ORDER BY p.target_id, p.collected_at, p.id`,
  );
  const statesOfJob = db.prepare<[string], { target_id: string; stage: number; next_at: number | null; problem_code: string | null; problem_message: string | null; problem_at: number | null }>(
    `SELECT m.target_id, m.stage, m.next_at, m.problem_code, m.problem_message, m.problem_at FROM metrics_collection m JOIN targets t ON t.id = m.target_id
     WHERE t.job_id = ? ORDER BY m.target_id`,
  );
  // A target's latest reading is never pruned (its figures stay shown however old): only readings with a later one go.
  const prune = db.prepare<[number]>(
    `DELETE FROM post_metrics WHERE collected_at < ?
       AND id < (SELECT MAX(p2.id) FROM post_metrics p2 WHERE p2.target_id = post_metrics.target_id)`,
  );
  const pauseUpsert = db.prepare<[string, number, string]>(
    `INSERT INTO analytics_pauses (scope, until_at, reason) VALUES (?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET until_at = excluded.until_at, reason = excluded.reason WHERE excluded.until_at > analytics_pauses.until_at`,
  );
  const pauseOf = db.prepare<[string, number], { until_at: number; reason: string }>('SELECT until_at, reason FROM analytics_pauses WHERE scope = ? AND until_at > ?');
  const prunePauses = db.prepare<[number]>('DELETE FROM analytics_pauses WHERE until_at <= ?');
  // The latest reading of each of a user's targets published in a window (the latest by id: readings are appended in time order).
  const LATEST = `SELECT t.id AS target_id, t.job_id, t.platform, t.account_key, t.type, t.post_id, t.published_at, p.collected_at, p.metrics, p.platform_metrics
     FROM targets t JOIN post_metrics p ON p.target_id = t.id
     WHERE t.user_id = ? AND t.published_at >= ? AND t.published_at < ? AND t.post_id IS NOT NULL
       AND p.id = (SELECT MAX(p2.id) FROM post_metrics p2 WHERE p2.target_id = t.id)`;
  type LatestRow = { target_id: string; job_id: string; platform: string; account_key: string | null; type: string; post_id: string; published_at: number; collected_at: number; metrics: string; platform_metrics: string };
  const latestAll = db.prepare<[string, number, number], LatestRow>(`${LATEST} ORDER BY t.published_at, t.id`);
  const latestOne = db.prepare<[string, number, number, string], LatestRow>(`${LATEST} AND t.platform = ? ORDER BY t.published_at, t.id`);
  const postpone = db.prepare<[number, string]>('UPDATE metrics_collection SET next_at = ? WHERE target_id = ?');
  const dueSoon = db.prepare<[string, string, number], { one: number }>(
    `SELECT 1 AS one FROM targets WHERE user_id = ? AND platform = ? AND status = 'scheduled' AND COALESCE(next_attempt_at, due_at) <= ? LIMIT 1`,
  );

  return {
    /**
     * Gives targets published by `publishedBy` without a place in the schedule their first
     * reading, `firstAgeMs` after publishing; returns how many.
     */
    enrolPublished(firstAgeMs: number, publishedBy: number, limit: number): number {
      return enrol.run(firstAgeMs, publishedBy, limit).changes;
    },
    /**
     * Published targets whose next reading is due at `now`, the longest due first, except
     * those of a user's platform with a target publishing or due to publish by `publishBy`.
     */
    due(now: number, publishBy: number, limit: number): DueTarget[] {
      return due.all(now, publishBy, limit).map(dueTarget);
    },
    /** A job's published targets (for a reading on demand), with their stage (0 when not enrolled yet). */
    publishedOfJob(jobId: string): DueTarget[] {
      return publishedOfJob.all(jobId).map(dueTarget);
    },
    /**
     * Records a reading, the target's next place in the schedule (the problem cleared) and
     * the `post.metrics_updated` event, together (call inside the caller's transaction).
     */
    recordReading(t: Pick<DueTarget, 'targetId' | 'userId' | 'jobId' | 'platform' | 'type' | 'postId'>, snapshot: MetricsSnapshot, stage: number, nextAt: number | null): void {
      insertSnapshot.run(t.targetId, snapshot.collectedAt, JSON.stringify(snapshot.metrics), JSON.stringify(snapshot.platformMetrics));
      upsertState.run(t.targetId, t.userId, stage, nextAt, null, null, null);
      const data: StoredData<'post.metrics_updated'> = {
        target_id: t.targetId,
        platform: t.platform,
        type: t.type,
        post_id: t.postId,
        collected_at: snapshot.collectedAt,
        metrics: snapshot.metrics,
        platform_metrics: snapshot.platformMetrics,
      };
      outbox.append({ userId: t.userId, type: 'post.metrics_updated', jobId: t.jobId, subject: t.targetId, data, at: snapshot.collectedAt });
    },
    /** Records why an attempt read nothing, and when to try again (null: not on its own). */
    noteProblem(t: { targetId: string; userId: string }, problem: { code: string; message: string; at: number }, stage: number, nextAt: number | null): void {
      upsertState.run(t.targetId, t.userId, stage, nextAt, problem.code, problem.message, problem.at);
    },
    /** Every reading of a job's targets, by target, oldest first. */
    historyOfJob(jobId: string): Map<string, MetricsSnapshot[]> {
      const out = new Map<string, MetricsSnapshot[]>();
      for (const r of snapshotsOfJob.all(jobId)) {
        let list = out.get(r.target_id);
        if (!list) out.set(r.target_id, (list = []));
        list.push({ collectedAt: r.collected_at, metrics: JSON.parse(r.metrics) as NormalizedMetrics, platformMetrics: JSON.parse(r.platform_metrics) as Record<string, number> });
      }
      return out;
    },
    /** The schedule's state of a job's targets, by target. */
    statesOfJob(jobId: string): Map<string, CollectionState> {
      return new Map(
        statesOfJob.all(jobId).map((r) => [
          r.target_id,
          {
            targetId: r.target_id,
            stage: r.stage,
            nextAt: r.next_at,
            problem: r.problem_code !== null ? { code: r.problem_code, message: r.problem_message ?? '', at: r.problem_at ?? 0 } : null,
          },
        ]),
      );
    },
    /** Moves a target's next reading (collection yielded to publishing, or the budget is used), its stage and problem kept. */
    postpone(targetId: string, nextAt: number): void {
      postpone.run(nextAt, targetId);
    },
    /** Whether the user has a target of the platform to publish by `until` (collection then leaves the connection to it). */
    publishDueBy(userId: string, platform: Platform, until: number): boolean {
      return dueSoon.get(userId, platform, until) !== undefined;
    },
    /** The latest reading of each of the user's targets published in [from, to), optionally of one platform, in publish order. */
    latestInWindow(userId: string, from: number, to: number, platform: Platform | null): LatestReading[] {
      const rows = platform === null ? latestAll.all(userId, from, to) : latestOne.all(userId, from, to, platform);
      return rows.map((r) => ({
        targetId: r.target_id,
        jobId: r.job_id,
        platform: r.platform as Platform,
        accountKey: r.account_key ?? r.platform,
        type: r.type,
        postId: r.post_id,
        publishedAt: r.published_at,
        collectedAt: r.collected_at,
        metrics: JSON.parse(r.metrics) as NormalizedMetrics,
        platformMetrics: JSON.parse(r.platform_metrics) as Record<string, number>,
      }));
    },
    /** Drops readings taken before `before` (the retention setting), but never a target's latest; returns how many. */
    prune(before: number): number {
      return prune.run(before).changes;
    },
    /**
     * Records that a network told the readings of a connection (`scope`) to wait until
     * `until` (a 429); a pause only moves later. Kept in the database: a restart and every
     * other daemon over it honour it.
     */
    pauseReadings(scope: string, until: number, reason: string): void {
      pauseUpsert.run(scope, until, reason);
    },
    /** The pause on a connection's readings still running at `now`, or null. */
    readingsPaused(scope: string, now: number): { until: number; reason: string } | null {
      const r = pauseOf.get(scope, now);
      return r ? { until: r.until_at, reason: r.reason } : null;
    },
    /** Forgets pauses over by `now`; returns how many. */
    prunePauses(now: number): number {
      return prunePauses.run(now).changes;
    },
  };
}
