import type { AccountKey, ContentType, PostReplies, PostSource, JobStatus, Platform, PublishRequest, TargetReplies, TargetStatus } from '@socialpub/core';
import type { DB } from './database';
import { createOutboxWriter } from './outbox';
import type { TargetRemoval } from './removals';
import { createJobFinishes } from './state-events';

export interface TargetRecord {
  id: string;
  jobId: string;
  userId: string;
  platform: Platform;
  /** The account it publishes through; null for a target accepted before accounts (migration 200) and one whose account was not found when its series occurrence was made (it publishes through the account its key names). */
  connectionId: string | null;
  /** The `platforms` entry that asked for it (`twitter:brand`, or the network): the key of its per-target fields. */
  accountKey: string;
  /** The label of its account now (null: that connection was removed). */
  label: string | null;
  type: ContentType;
  scheduleKey: string | null;
  dueAt: number;
  status: TargetStatus;
  attempts: number;
  postId: string | null;
  postUrl: string | null;
  publishedAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  platformCode: string | null;
  /** Not before this time (a retry's backoff, a platform's pause); null: at dueAt. */
  nextAttemptAt: number | null;
  /** The replies: the thread parts already out and the first comment's outcome ({} when none; column follow_ups). */
  replies: TargetReplies;
  updatedAt: number;
  /** When the post was taken down (status removed), else null. */
  removedAt: number | null;
  /** The last take-down that did not end in removed (store/removals.ts), else null. */
  removal: TargetRemoval | null;
  /** Steps after the post (a YouTube thumbnail, playlist), from the adapter's checkpoint; absent when none. */
  postSteps?: Record<string, PostStepRecord>;
}

/** One post step as the checkpoint holds it (platforms/adapter.ts PostStep; `requested`: sent, answer unknown). */
export interface PostStepRecord {
  status: 'done' | 'failed' | 'requested';
  id?: string;
  error?: string;
}

export interface PostRecord {
  id: string;
  userId: string;
  caption: string;
  /** The `platforms` entries as accepted: networks and accounts (`twitter:brand`). */
  platforms: AccountKey[];
  platformCaptions: Record<string, string>;
  platformTypes: Record<string, string[]>;
  mediaUrls: string[];
  publishNow: boolean;
  /** Base time, or null for publish_now. */
  scheduledFor: number | null;
  typeSchedule: Record<string, string>;
  requireApproval: boolean;
  /** Per-platform options as accepted (platform_options, keyed like platforms); {} when the request gave none. */
  platformOptions: NonNullable<PublishRequest['platform_options']>;
  /** The request's thread and first_comment as accepted; {} when it gave neither. */
  replies: PostReplies;
  /** How the job was created (api, mcp, cli): a label the client declares. */
  source: PostSource;
  /** scheduled_for, or the creation time for publish_now: the list order. */
  sortAt: number;
  createdAt: number;
  updatedAt: number;
  /** The content version: 1 when stored, one more on each edit of caption, platform captions or options. */
  version: number;
  /** Who wrote the current content: the last content edit's source, else `source`. */
  contentSource: PostSource;
  targets: TargetRecord[];
}

/** A job to write; `source` defaults to api; without platformOptions it has none ({}). */
export type NewPost = Omit<PostRecord, 'targets' | 'updatedAt' | 'version' | 'contentSource' | 'source' | 'platformOptions' | 'replies'> & {
  source?: PostSource;
  platformOptions?: PostRecord['platformOptions'];
  replies?: PostReplies;
};
export type NewTarget = Pick<TargetRecord, 'id' | 'platform' | 'type' | 'scheduleKey' | 'dueAt' | 'status'> & {
  connectionId?: string | null;
  /** Absent: the network (a bare `platforms` entry). */
  accountKey?: string;
};

interface PostRow {
  id: string;
  user_id: string;
  caption: string;
  platforms: string;
  platform_captions: string;
  platform_types: string;
  media_urls: string;
  publish_now: number;
  scheduled_for: number | null;
  type_schedule: string;
  require_approval: number;
  platform_options: string;
  follow_ups: string;
  source: PostSource;
  sort_at: number;
  created_at: number;
  updated_at: number;
  version: number;
  content_source: PostSource | null;
}

interface TargetRow {
  id: string;
  job_id: string;
  user_id: string;
  platform: Platform;
  connection_id: string | null;
  account_key: string | null;
  label: string | null;
  type: ContentType;
  schedule_key: string | null;
  due_at: number;
  status: TargetStatus;
  attempts: number;
  post_id: string | null;
  post_url: string | null;
  published_at: number | null;
  error_code: string | null;
  error_message: string | null;
  platform_code: string | null;
  next_attempt_at: number | null;
  follow_ups: string;
  updated_at: number;
  removed_at: number | null;
  removal: string | null;
  /** The checkpoint's followUps (JSON text), or null. */
  post_steps: string | null;
}

const toTarget = (r: TargetRow): TargetRecord => ({
  id: r.id,
  jobId: r.job_id,
  userId: r.user_id,
  platform: r.platform,
  connectionId: r.connection_id,
  accountKey: r.account_key ?? r.platform,
  label: r.label,
  type: r.type,
  scheduleKey: r.schedule_key,
  dueAt: r.due_at,
  status: r.status,
  attempts: r.attempts,
  postId: r.post_id,
  postUrl: r.post_url,
  publishedAt: r.published_at,
  errorCode: r.error_code,
  errorMessage: r.error_message,
  platformCode: r.platform_code,
  nextAttemptAt: r.next_attempt_at,
  replies: JSON.parse(r.follow_ups) as TargetReplies,
  updatedAt: r.updated_at,
  removedAt: r.removed_at,
  removal: r.removal === null ? null : (JSON.parse(r.removal) as TargetRemoval),
  ...(r.post_steps ? { postSteps: JSON.parse(r.post_steps) as Record<string, PostStepRecord> } : {}),
});

const toJob = (r: PostRow, targets: TargetRecord[]): PostRecord => ({
  id: r.id,
  userId: r.user_id,
  caption: r.caption,
  platforms: JSON.parse(r.platforms) as AccountKey[],
  platformCaptions: JSON.parse(r.platform_captions) as Record<string, string>,
  platformTypes: JSON.parse(r.platform_types) as Record<string, string[]>,
  mediaUrls: JSON.parse(r.media_urls) as string[],
  publishNow: r.publish_now === 1,
  scheduledFor: r.scheduled_for,
  typeSchedule: JSON.parse(r.type_schedule) as Record<string, string>,
  requireApproval: r.require_approval === 1,
  platformOptions: JSON.parse(r.platform_options) as PostRecord['platformOptions'],
  replies: JSON.parse(r.follow_ups) as PostReplies,
  source: r.source,
  sortAt: r.sort_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  version: r.version,
  contentSource: r.content_source ?? r.source,
  targets,
});

/** Position in the list order (sort_at, id); opaque to clients. */
export interface ListPosition {
  sortAt: number;
  id: string;
}

export interface ListOptions {
  status: JobStatus | 'all';
  limit: number;
  after: ListPosition | null;
  /** Narrows the list further (GET /content/scheduled's platform, target_status, source, q, from, to); absent: every post. */
  filter?: ListFilter;
}

/** The list's narrowing filters; each one left out matches every post. */
export interface ListFilter {
  /** A network: posts with a target on it. */
  platform?: string;
  /** Posts with at least one target in this status. */
  targetStatus?: string;
  source?: string;
  /** Text in the caption or a platform caption (ASCII letters in any case), or the job id. */
  text?: string;
  /** Epoch ms: sort_at (the post's base time) at or after. */
  fromAt?: number;
  /** Epoch ms: sort_at before. */
  toAt?: number;
}

/** `text` as a LIKE pattern matching it anywhere; its own percent signs, underscores and backslashes are escaped with a backslash (the statement's ESCAPE). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// The label is the account's now (a rename shows at once); the correlated lookup is by primary key.
const TARGET_COLUMNS =
  "id, job_id, user_id, platform, connection_id, account_key, (SELECT c.label FROM connections c WHERE c.id = targets.connection_id) AS label, type, schedule_key, due_at, status, attempts, post_id, post_url, published_at, error_code, error_message, platform_code, next_attempt_at, follow_ups, updated_at, removed_at, removal, checkpoint->'followUps' AS post_steps";
const JOB_COLUMNS =
  'id, user_id, caption, platforms, platform_captions, platform_types, media_urls, publish_now, scheduled_for, type_schedule, require_approval, platform_options, follow_ups, source, sort_at, created_at, updated_at, version, content_source';
const NOT_STARTED_SQL = "('pending_approval', 'changes_requested', 'scheduled')";
/** Held for a person: approve and reject act on both (core's AWAITING_REVIEW). */
const AWAITING_REVIEW_SQL = "('pending_approval', 'changes_requested')";
/** Below any epoch-ms time: the start of the list. */
const BEFORE_ALL = -Number.MAX_SAFE_INTEGER;
/** Past any epoch-ms time: the end of the list. */
const AFTER_ALL = Number.MAX_SAFE_INTEGER;

export type PostsRepository = ReturnType<typeof createPostsRepository>;

/**
 * Jobs and their targets. Writes that move target states are compare-and-set on the
 * current status, so a target the publisher has claimed in the meantime is left alone.
 */
export function createPostsRepository(db: DB) {
  const insertJob = db.prepare(
    `INSERT INTO jobs (id, user_id, caption, platforms, platform_captions, platform_types, media_urls, publish_now, scheduled_for,
       type_schedule, require_approval, platform_options, follow_ups, source, sort_at, created_at, updated_at)
     VALUES (@id, @userId, @caption, @platforms, @platformCaptions, @platformTypes, @mediaUrls, @publishNow, @scheduledFor,
       @typeSchedule, @requireApproval, @platformOptions, @followUps, @source, @sortAt, @createdAt, @createdAt)`,
  );
  const insertTarget = db.prepare(
    `INSERT INTO targets (id, job_id, user_id, platform, connection_id, account_key, type, schedule_key, due_at, status, updated_at)
     VALUES (@id, @jobId, @userId, @platform, @connectionId, @accountKey, @type, @scheduleKey, @dueAt, @status, @now)`,
  );
  const jobById = db.prepare<[string], PostRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`);
  const targetsOfJob = db.prepare<[string], TargetRow>(`SELECT ${TARGET_COLUMNS} FROM targets WHERE job_id = ? ORDER BY due_at, rowid`);
  const targetsOfJobs = db.prepare<[string], TargetRow>(
    `SELECT ${TARGET_COLUMNS} FROM targets WHERE job_id IN (SELECT value FROM json_each(?)) ORDER BY job_id, due_at, rowid`,
  );
  type PageParams = { userId: string; sortAt: number; id: string; limit: number; status?: string };
  const pageAll = db.prepare<[PageParams], PostRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = @userId AND (sort_at, id) > (@sortAt, @id) ORDER BY sort_at, id LIMIT @limit`,
  );
  const pageByStatus = db.prepare<[PageParams], PostRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = @userId AND status = @status AND (sort_at, id) > (@sortAt, @id)
     ORDER BY sort_at, id LIMIT @limit`,
  );
  type FilteredParams = PageParams & { status: string; platform: string; targetStatus: string; source: string; pattern: string; text: string; fromAt: number; toAt: number };
  // One text for every filter ('' or the open bounds match all), so one statement serves every combination.
  const pageFiltered = db.prepare<[FilteredParams], PostRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = @userId AND (sort_at, id) > (@sortAt, @id)
       AND (@status = '' OR status = @status)
       AND (@source = '' OR source = @source)
       AND sort_at >= @fromAt AND sort_at < @toAt
       AND (@platform = '' OR EXISTS (SELECT 1 FROM targets t WHERE t.job_id = jobs.id AND t.platform = @platform))
       AND (@targetStatus = '' OR EXISTS (SELECT 1 FROM targets t WHERE t.job_id = jobs.id AND t.status = @targetStatus))
       AND (@text = '' OR id = @text OR lower(caption) LIKE lower(@pattern) ESCAPE '\\' OR lower(platform_captions) LIKE lower(@pattern) ESCAPE '\\')
     ORDER BY sort_at, id LIMIT @limit`,
  );
  const updateJob = db.prepare(
    `UPDATE jobs SET caption = @caption, platform_captions = @platformCaptions, type_schedule = @typeSchedule,
       platform_options = @platformOptions, scheduled_for = @scheduledFor, publish_now = @publishNow, sort_at = @sortAt, updated_at = @now,
       version = version + @bump, content_source = coalesce(@contentSource, content_source) WHERE id = @id`,
  );
  const touchJob = db.prepare('UPDATE jobs SET updated_at = ? WHERE id = ?');
  const retime = db.prepare(
    `UPDATE targets SET due_at = @dueAt, schedule_key = @scheduleKey, next_attempt_at = NULL, updated_at = @now
     WHERE id = @id AND status IN ${NOT_STARTED_SQL}`,
  );
  const cancel = db.prepare<[number, string], { id: string }>(
    `UPDATE targets SET status = 'cancelled', updated_at = ? WHERE job_id = ? AND status IN ${NOT_STARTED_SQL} RETURNING id`,
  );
  const approve = db.prepare<[{ now: number; jobId: string }], { id: string }>(
    `UPDATE targets SET status = 'scheduled', due_at = CASE WHEN due_at > @now THEN due_at ELSE @now END, updated_at = @now
     WHERE job_id = @jobId AND status IN ${AWAITING_REVIEW_SQL} RETURNING id`,
  );
  const holdAgain = db.prepare<[number, string], { id: string }>(
    `UPDATE targets SET status = 'pending_approval', updated_at = ? WHERE job_id = ? AND status = 'scheduled' RETURNING id`,
  );
  const reject = db.prepare<[number, string], { id: string }>(
    `UPDATE targets SET status = 'cancelled', updated_at = ? WHERE job_id = ? AND status IN ${AWAITING_REVIEW_SQL} RETURNING id`,
  );
  const requestChanges = db.prepare<[number, string], { id: string }>(
    `UPDATE targets SET status = 'changes_requested', updated_at = ? WHERE job_id = ? AND status = 'pending_approval' RETURNING id`,
  );
  const resubmit = db.prepare<[number, string], { id: string }>(
    `UPDATE targets SET status = 'pending_approval', updated_at = ? WHERE job_id = ? AND status = 'changes_requested' RETURNING id`,
  );
  const countByStatus = db.prepare<[], { status: TargetStatus; n: number }>('SELECT status, count(*) AS n FROM targets GROUP BY status');

  const touch = (jobId: string, now: number) => touchJob.run(now, jobId);
  const outbox = createOutboxWriter(db);
  const finishes = createJobFinishes(db);
  /** Cancelling the last unsettled targets settles a job whose others are published or failed: its post.finished (state-events.ts). */
  const settle = (jobId: string) => {
    const finished = finishes.finished([jobId]).get(jobId);
    if (finished) outbox.append(finished);
  };

  return {
    /** Writes a job and its targets. Call inside the caller's transaction with anything that must commit with it. */
    create(job: NewPost, targets: readonly NewTarget[]): void {
      insertJob.run({
        id: job.id,
        userId: job.userId,
        caption: job.caption,
        platforms: JSON.stringify(job.platforms),
        platformCaptions: JSON.stringify(job.platformCaptions),
        platformTypes: JSON.stringify(job.platformTypes),
        mediaUrls: JSON.stringify(job.mediaUrls),
        publishNow: job.publishNow ? 1 : 0,
        scheduledFor: job.scheduledFor,
        typeSchedule: JSON.stringify(job.typeSchedule),
        requireApproval: job.requireApproval ? 1 : 0,
        platformOptions: JSON.stringify(job.platformOptions ?? {}),
        followUps: JSON.stringify(job.replies ?? {}),
        source: job.source ?? 'api',
        sortAt: job.sortAt,
        createdAt: job.createdAt,
      });
      for (const t of targets) {
        const { connectionId = null, accountKey = t.platform, ...rest } = t;
        // A bare network name is stored as NULL (migration 200): the key is the network.
        insertTarget.run({ ...rest, connectionId, accountKey: accountKey === t.platform ? null : accountKey, jobId: job.id, userId: job.userId, now: job.createdAt });
      }
    },
    get(jobId: string): PostRecord | null {
      const row = jobById.get(jobId);
      return row ? toJob(row, targetsOfJob.all(jobId).map(toTarget)) : null;
    },
    /** One page of a user's jobs in (sort_at, id) order, and the position after it when more follow. */
    list(userId: string, opts: ListOptions): { jobs: PostRecord[]; next: ListPosition | null } {
      const params: PageParams = {
        userId,
        sortAt: opts.after?.sortAt ?? BEFORE_ALL,
        id: opts.after?.id ?? '',
        limit: opts.limit + 1,
      };
      const f = opts.filter;
      const rows = f
        ? pageFiltered.all({
            ...params,
            status: opts.status === 'all' ? '' : opts.status,
            platform: f.platform ?? '',
            targetStatus: f.targetStatus ?? '',
            source: f.source ?? '',
            text: f.text ?? '',
            pattern: f.text ? containsPattern(f.text) : '',
            fromAt: f.fromAt ?? BEFORE_ALL,
            toAt: f.toAt ?? AFTER_ALL,
          })
        : opts.status === 'all'
          ? pageAll.all(params)
          : pageByStatus.all({ ...params, status: opts.status });
      const more = rows.length > opts.limit;
      const page = more ? rows.slice(0, opts.limit) : rows;
      const byJob = new Map<string, TargetRecord[]>(page.map((r) => [r.id, []]));
      if (page.length > 0) {
        for (const t of targetsOfJobs.all(JSON.stringify(page.map((r) => r.id)))) byJob.get(t.job_id)?.push(toTarget(t));
      }
      const jobs = page.map((r) => toJob(r, byJob.get(r.id) ?? []));
      const last = page[page.length - 1];
      return { jobs, next: more && last ? { sortAt: last.sort_at, id: last.id } : null };
    },
    /** Rewrites the editable fields of a job; `contentBy` (caption, platform captions or options changed, through that source) counts a new version. */
    update(
      jobId: string,
      fields: Pick<PostRecord, 'caption' | 'platformCaptions' | 'typeSchedule' | 'platformOptions' | 'scheduledFor' | 'publishNow' | 'sortAt'>,
      now: number,
      contentBy: PostSource | null = null,
    ): void {
      updateJob.run({
        id: jobId,
        caption: fields.caption,
        platformCaptions: JSON.stringify(fields.platformCaptions),
        typeSchedule: JSON.stringify(fields.typeSchedule),
        platformOptions: JSON.stringify(fields.platformOptions),
        scheduledFor: fields.scheduledFor,
        publishNow: fields.publishNow ? 1 : 0,
        sortAt: fields.sortAt,
        now,
        bump: contentBy === null ? 0 : 1,
        contentSource: contentBy,
      });
    },
    /** Moves not-started targets to new due times; returns the ids that moved. */
    retime(jobId: string, moves: readonly { id: string; dueAt: number; scheduleKey: string | null }[], now: number): string[] {
      const moved = moves.filter((m) => retime.run({ ...m, now }).changes === 1).map((m) => m.id);
      if (moved.length > 0) touch(jobId, now);
      return moved;
    },
    /** Cancels every target not yet started; returns their ids. */
    cancel(jobId: string, now: number): string[] {
      const ids = cancel.all(now, jobId).map((r) => r.id);
      if (ids.length > 0) {
        settle(jobId);
        touch(jobId, now);
      }
      return ids;
    },
    /** pending_approval or changes_requested -> scheduled (due now if its time has passed); returns the ids. */
    approve(jobId: string, now: number): string[] {
      const ids = approve.all({ now, jobId }).map((r) => r.id);
      if (ids.length > 0) touch(jobId, now);
      return ids;
    },
    /** scheduled -> pending_approval (an approved post was edited: it goes back to review); returns the ids. */
    holdAgain(jobId: string, now: number): string[] {
      const ids = holdAgain.all(now, jobId).map((r) => r.id);
      if (ids.length > 0) touch(jobId, now);
      return ids;
    },
    /** pending_approval -> changes_requested (a reviewer asked for changes); returns the ids. */
    requestChanges(jobId: string, now: number): string[] {
      const ids = requestChanges.all(now, jobId).map((r) => r.id);
      if (ids.length > 0) touch(jobId, now);
      return ids;
    },
    /** changes_requested -> pending_approval (the post was edited: back to review); returns the ids. */
    resubmit(jobId: string, now: number): string[] {
      const ids = resubmit.all(now, jobId).map((r) => r.id);
      if (ids.length > 0) touch(jobId, now);
      return ids;
    },
    /** pending_approval or changes_requested -> cancelled; returns the ids. */
    reject(jobId: string, now: number): string[] {
      const ids = reject.all(now, jobId).map((r) => r.id);
      if (ids.length > 0) {
        settle(jobId);
        touch(jobId, now);
      }
      return ids;
    },
    /** Number of targets per status (for /healthz). */
    countTargetsByStatus(): Partial<Record<TargetStatus, number>> {
      const out: Partial<Record<TargetStatus, number>> = {};
      for (const r of countByStatus.all()) out[r.status] = r.n;
      return out;
    },
  };
}
