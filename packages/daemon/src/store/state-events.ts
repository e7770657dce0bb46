import type { EventTargetErrorSchema, Platform, TargetStatus } from '@socialpub/core';
import type { z } from 'zod';
import type { DB } from './database';
import type { NewEvent, StoredData } from './outbox';

/**
 * The events of target and job state changes (docs/events.md), built from the rows the
 * store's writes return (RETURNING), in the transaction of the write: the store operation
 * that changes a target's status appends its event (attempt-finish.ts, target-claims.ts,
 * removals.ts), and the operations that can settle a job append post.finished
 * (`createJobFinishes`). Times are epoch ms here, ISO once presented; the data of each type
 * is core's schema of it (schemas/event-data.ts). Until migration 160 SQL triggers wrote
 * these; the payloads are theirs, key for key (test/store/state-events.test.ts passes on
 * both).
 */

/** The target columns an event needs, as a RETURNING or SELECT list (`p` prefixes them, e.g. `targets.`). */
export const targetEventColumns = (p = '') =>
  [
    ...['id', 'job_id', 'user_id', 'platform', 'connection_id', 'type', 'attempts', 'attempt_started_at', 'post_id', 'post_url', 'published_at', 'error_code', 'error_message', 'platform_code', 'follow_ups', 'next_attempt_at', 'due_at', 'updated_at', 'removed_at'].map(
      (c) => `${p}${c}`,
    ),
    connectionLabelColumn,
  ].join(', ');

/**
 * The label of a target's account now, as a column of a statement on `targets` (a lookup by
 * primary key per row; null when the connection was removed): events name the account.
 */
export const connectionLabelColumn = '(SELECT c.label FROM connections c WHERE c.id = targets.connection_id) AS connection_label';

/** The account fields of a target's event (schemas/event-data.ts accountFields). */
export const accountOf = (r: { connection_id: string | null; connection_label: string | null }) => ({ connection_id: r.connection_id, label: r.connection_label });

/** A target row as `targetEventColumns` reads it. */
export interface TargetEventRow {
  id: string;
  job_id: string;
  user_id: string;
  platform: Platform;
  connection_id: string | null;
  /** The label of its account now (connectionLabelColumn). */
  connection_label: string | null;
  type: string;
  attempts: number;
  attempt_started_at: number | null;
  post_id: string | null;
  post_url: string | null;
  published_at: number | null;
  error_code: string | null;
  error_message: string | null;
  platform_code: string | null;
  follow_ups: string;
  next_attempt_at: number | null;
  due_at: number;
  updated_at: number;
  removed_at: number | null;
}

/** The status a write moved a target to, and so its event. */
export type TargetEventStatus = 'publishing' | 'published' | 'retrying' | 'failed' | 'needs_review' | 'removed';

const TYPE: Record<TargetEventStatus, string> = {
  publishing: 'target.publishing',
  published: 'target.published',
  retrying: 'target.retrying',
  failed: 'target.failed',
  needs_review: 'target.needs_review',
  removed: 'target.removed',
};

/** The error of a retry (null fields after a check that found nothing published). */
const retryErrorOf = (r: TargetEventRow) => ({ code: r.error_code, message: r.error_message, platform_code: r.platform_code });
/** The error of a failed or unknown end, which always has a code and a message (attempt-finish.ts writes them). */
const errorOf = (r: TargetEventRow): z.infer<typeof EventTargetErrorSchema> => ({ code: r.error_code as string, message: r.error_message as string, platform_code: r.platform_code });

type FollowUps = Pick<StoredData<'target.published'>, 'thread_posts' | 'comment'>;

/** What came of the follow-ups (`thread_posts`, `comment`), when the target has any: the keys of the target view. */
function followUpsOf(r: TargetEventRow): FollowUps {
  const f = JSON.parse(r.follow_ups) as { thread?: FollowUps['thread_posts'] | null; comment?: FollowUps['comment'] | null };
  const out: FollowUps = {};
  if (f.thread != null) out.thread_posts = f.thread;
  if (f.comment != null) out.comment = f.comment;
  return out;
}

/** target.publishing of a claim (the claim's row; `at` its time). */
export function publishingEvent(
  r: Pick<TargetEventRow, 'id' | 'job_id' | 'user_id' | 'platform' | 'connection_id' | 'connection_label' | 'type' | 'attempts' | 'attempt_started_at'>,
  at: number,
): NewEvent {
  const data: StoredData<'target.publishing'> = { target_id: r.id, platform: r.platform, ...accountOf(r), type: r.type, attempt: r.attempts, started_at: r.attempt_started_at as number };
  return { userId: r.user_id, type: TYPE.publishing, jobId: r.job_id, subject: r.id, data, at };
}

/**
 * The event of a target's move to `status` (the row as the write left it: the columns the
 * write sets, such as post_id with published, are set; the casts say so). Each payload is
 * checked against core's schema of its type (`StoredData`). A retry says whether a
 * platform's rate limit holds it (`retry.rateLimited`: the attempt's error was one).
 */
export function targetEvent(status: TargetEventStatus, r: TargetEventRow, retry: { rateLimited: boolean } = { rateLimited: false }): NewEvent {
  const base = { target_id: r.id, platform: r.platform, ...accountOf(r), type: r.type };
  const attempt = { ...base, attempt: r.attempts };
  let data: StoredData<'target.published' | 'target.retrying' | 'target.failed' | 'target.needs_review' | 'target.removed'>;
  switch (status) {
    case 'publishing':
      return publishingEvent(r, r.updated_at);
    case 'published':
      data = { ...attempt, post_id: r.post_id as string, post_url: r.post_url, published_at: r.published_at as number, ...followUpsOf(r) } satisfies StoredData<'target.published'>;
      break;
    case 'retrying':
      data = {
        ...attempt,
        error: retryErrorOf(r),
        next_attempt_at: r.next_attempt_at ?? r.due_at,
        reason: retry.rateLimited ? 'rate_limit' : 'retry',
      } satisfies StoredData<'target.retrying'>;
      break;
    case 'failed':
      data = { ...attempt, error: errorOf(r), ...followUpsOf(r) } satisfies StoredData<'target.failed'>;
      break;
    case 'needs_review':
      data = { ...attempt, error: errorOf(r) } satisfies StoredData<'target.needs_review'>;
      break;
    case 'removed':
      data = { ...base, post_id: r.post_id, post_url: r.post_url, removed_at: r.removed_at as number } satisfies StoredData<'target.removed'>;
      break;
  }
  return { userId: r.user_id, type: TYPE[status], jobId: r.job_id, subject: r.id, data, at: r.updated_at };
}

interface FinishedRow {
  job_id: string;
  user_id: string;
  job_status: string;
  id: string;
  platform: Platform;
  connection_id: string | null;
  connection_label: string | null;
  type: string;
  status: TargetStatus;
  post_id: string | null;
  post_url: string | null;
  updated_at: number;
}

type Finished = StoredData<'post.finished'>['status'];
const FINISHED = new Set<string>(['published', 'partially_published', 'failed'] satisfies Finished[]);

export type JobFinishes = ReturnType<typeof createJobFinishes>;

/**
 * post.finished: once per job, when a change moved the last of its targets out of
 * pending_approval/scheduled/publishing/needs_review and the job (its status column, kept by
 * migration 002's triggers) is now published, partially_published or failed. A job of
 * removed and failed targets is stored as `removed` (migration 100) but finished `failed`.
 * A take-down never finishes a job again: only the writes that move an unsettled target
 * (attempt ends, cancel, reject) ask.
 */
export function createJobFinishes(db: DB) {
  const settled = db.prepare<[string], FinishedRow>(
    `SELECT j.id AS job_id, j.user_id, j.status AS job_status, t.id, t.platform, t.connection_id, c.label AS connection_label, t.type, t.status,
            t.post_id, t.post_url, t.updated_at
       FROM jobs j JOIN targets t ON t.job_id = j.id LEFT JOIN connections c ON c.id = t.connection_id
      WHERE j.id IN (SELECT value FROM json_each(?)) AND j.status IN ('published', 'partially_published', 'failed', 'removed')
      ORDER BY j.id, t.rowid`,
  );

  /** The post.finished events of those of `jobIds` the change settled, by job. */
  function finished(jobIds: Iterable<string>): Map<string, NewEvent> {
    const ids = [...new Set(jobIds)];
    const out = new Map<string, NewEvent>();
    if (ids.length === 0) return out;
    const byJob = new Map<string, FinishedRow[]>();
    for (const r of settled.all(JSON.stringify(ids))) {
      const rows = byJob.get(r.job_id);
      if (rows) rows.push(r);
      else byJob.set(r.job_id, [r]);
    }
    for (const [jobId, rows] of byJob) {
      const first = rows[0] as FinishedRow;
      const status = first.job_status === 'removed' ? (rows.some((r) => r.status === 'failed') ? 'failed' : null) : first.job_status;
      if (status === null || !FINISHED.has(status)) continue;
      const targets = rows.map((r) => ({ target_id: r.id, platform: r.platform, ...accountOf(r), type: r.type, status: r.status, post_id: r.post_id, post_url: r.post_url }));
      const data: StoredData<'post.finished'> = { job_id: jobId, status: status as Finished, targets };
      out.set(jobId, { userId: first.user_id, type: 'post.finished', jobId, subject: jobId, data, at: Math.max(...rows.map((r) => r.updated_at)) });
    }
    return out;
  }

  return {
    finished,
    /**
     * `events` (target events in write order) with each settled job's post.finished right
     * after the last event of that job, as the triggers wrote them; `jobIds` are the jobs
     * whose targets the change moved (also those without an event in `events`).
     */
    withFinishes(events: readonly NewEvent[], jobIds: Iterable<string>): NewEvent[] {
      const done = finished(jobIds);
      if (done.size === 0) return [...events];
      const last = new Map<string, number>();
      events.forEach((e, i) => {
        if (e.jobId) last.set(e.jobId, i);
      });
      const out: NewEvent[] = [];
      events.forEach((e, i) => {
        out.push(e);
        const f = e.jobId ? done.get(e.jobId) : undefined;
        if (f && last.get(e.jobId as string) === i) out.push(f);
      });
      for (const [jobId, f] of done) if (!last.has(jobId)) out.push(f);
      return out;
    },
  };
}
