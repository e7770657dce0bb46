import {
  JobIdQuerySchema,
  ListQuerySchema,
  NOT_STARTED,
  PAST_TOLERANCE_MS,
  UpdateRequestSchema,
  deriveJobStatus,
  formatInstant,
  parseInstant,
  planTargets,
  type CancelResponse,
  type ErrorDetail,
  type GetResponse,
  type ListResponse,
  type UpdateResponse,
} from '@socialpub/core';
import { Hono, type Context } from 'hono';
import type { JobRecord, ListPosition } from '../../store/jobs';
import type { User } from '../../store/users';
import { captionFor } from '../check-publish';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { jobSourceOf } from '../job-source';
import { checkTargetRules } from '../platform-rules';
import { presentPost } from '../present';

/** The opaque list cursor: base64url of `<sort_at>.<job id>`. */
export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.sortAt}.${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(-?\d{1,16})\.(job_[0-9a-z]{1,64})$/.exec(text);
  return m ? { sortAt: Number(m[1]), id: m[2] as string } : null;
}

function requireJobId(c: Context): string {
  const parsed = JobIdQuerySchema.safeParse({ job_id: c.req.query('job_id') });
  if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
  return parsed.data.job_id;
}

/** The job, if it exists and belongs to the caller: 404 when unknown, 403 when another user's. */
function ownJob(deps: RouteDeps, jobId: string, user: User): JobRecord {
  const job = deps.store.jobs.get(jobId);
  if (!job) throw new ApiError('not_found', `no job ${jobId}`);
  if (job.userId !== user.id) throw new ApiError('forbidden', `job ${jobId} belongs to another user`);
  return job;
}

const statusOf = (job: JobRecord) => deriveJobStatus(job.targets.map((t) => t.status));
const isNotStarted = (s: string) => (NOT_STARTED as readonly string[]).includes(s);

/** GET, PATCH, DELETE /content/scheduled and POST /content/scheduled/approve|reject. */
export function scheduledRoutes(deps: RouteDeps) {
  const { store, clock, scheduler } = deps;

  return new Hono<AppEnv>()
    .get('/', (c) => {
      const user = c.get('user');
      const jobId = c.req.query('job_id');
      if (jobId !== undefined) {
        const one: GetResponse = { success: true, post: presentPost(ownJob(deps, requireJobId(c), user)) };
        return c.json(one, 200);
      }
      const parsed = ListQuerySchema.safeParse(c.req.query());
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const q = parsed.data;
      let after: ListPosition | null = null;
      if (q.cursor !== undefined) {
        after = decodeCursor(q.cursor);
        if (!after) throw invalid([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
      }
      const page = store.jobs.list(user.id, { status: q.status, limit: q.limit, after });
      const body: ListResponse = { success: true, posts: page.jobs.map(presentPost), next_cursor: page.next ? encodeCursor(page.next) : null };
      return c.json(body, 200);
    })
    .patch('/', async (c) => {
      const jobId = requireJobId(c);
      const raw = await readJsonObject(c);
      const parsed = UpdateRequestSchema.safeParse(raw);
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const upd = parsed.data;
      const user = c.get('user');
      const job = ownJob(deps, jobId, user);
      const now = clock.now();
      const movable = job.targets.filter((t) => isNotStarted(t.status));
      if (movable.length === 0) {
        throw new ApiError('conflict', `nothing left to change: every target of ${jobId} has started or finished (job status: ${statusOf(job)})`);
      }

      const issues: ErrorDetail[] = [];
      for (const key of Object.keys(upd.platform_captions ?? {})) {
        if (!(job.platforms as string[]).includes(key)) issues.push({ path: `platform_captions.${key}`, message: `${key} is not among the job's platforms` });
      }
      let base = job.scheduledFor;
      let publishNow = job.publishNow;
      if (upd.scheduled_for !== undefined) {
        base = parseInstant(upd.scheduled_for) as number;
        publishNow = false;
        if (base < now - PAST_TOLERANCE_MS) issues.push({ path: 'scheduled_for', message: 'is more than 60 seconds in the past' });
      }
      const typeSchedule = upd.type_schedule ?? job.typeSchedule;
      if (upd.type_schedule !== undefined && base === null) {
        issues.push({ path: 'type_schedule', message: 'type_schedule needs scheduled_for as its base time' });
      }
      if (issues.length > 0) throw invalid(issues);

      // New due times: offsets move with the base, absolute times stay (core planTargets;
      // past checks are done below for the targets that actually move).
      const moves: { id: string; dueAt: number; scheduleKey: string | null }[] = [];
      if (base !== null) {
        const plan = planTargets(
          { platforms: job.platforms, platform_types: job.platformTypes, scheduled_for: formatInstant(base), type_schedule: typeSchedule },
          Number.NEGATIVE_INFINITY,
        );
        if (!plan.ok) throw invalid(plan.issues);
        const planned = new Map(plan.targets.map((t) => [`${t.platform}.${t.type}`, t]));
        for (const t of movable) {
          const p = planned.get(`${t.platform}.${t.type}`);
          if (!p) continue;
          if (p.dueAt < now - PAST_TOLERANCE_MS) {
            issues.push({ path: p.scheduleKey ? `type_schedule.${p.scheduleKey}` : 'scheduled_for', message: `${t.platform} ${t.type} would be due more than 60 seconds in the past` });
          }
          if (p.dueAt !== t.dueAt || p.scheduleKey !== t.scheduleKey) moves.push({ id: t.id, dueAt: p.dueAt, scheduleKey: p.scheduleKey });
        }
      }
      const caption = upd.caption ?? job.caption;
      const platformCaptions = { ...job.platformCaptions, ...upd.platform_captions };
      if (upd.caption !== undefined || upd.platform_captions !== undefined) {
        const media = deps.mediaLookup.describe(user.id, job.mediaUrls);
        for (const t of movable) {
          const cap = captionFor(t.platform, caption, platformCaptions);
          for (const d of checkTargetRules({
            platform: t.platform,
            type: t.type,
            caption: cap.caption,
            captionPath: cap.path,
            media,
            publicBaseUrl: deps.config.publicUrl,
            adapter: deps.adapters.get(t.platform),
          })) {
            if (d.path.startsWith('caption') || d.path.startsWith('platform_captions')) issues.push({ ...d, platform: t.platform, type: t.type });
          }
        }
      }
      if (issues.length > 0) throw invalid(issues);

      const moved = store.immediate(() => {
        store.jobs.update(jobId, { caption, platformCaptions, typeSchedule, scheduledFor: base, publishNow, sortAt: base ?? job.sortAt }, now);
        return store.jobs.retime(jobId, moves, now);
      });
      if (moved.length > 0) scheduler.targetsChanged(moved);
      const post = presentPost(store.jobs.get(jobId) as JobRecord);
      const body: UpdateResponse = {
        success: true,
        message: moved.length > 0 ? `Updated ${jobId}; ${moved.length} target${moved.length === 1 ? '' : 's'} re-timed` : `Updated ${jobId}`,
        post,
      };
      return c.json(body, 200);
    })
    .delete('/', (c) => {
      const jobId = requireJobId(c);
      const job = ownJob(deps, jobId, c.get('user'));
      const answer: CancelResponse = { success: true, message: `Cancelled ${jobId}`, job_id: jobId, status: 'cancelled' };
      // Cancelling a cancelled job again is the same success: DELETE is idempotent.
      if (job.targets.length > 0 && job.targets.every((t) => t.status === 'cancelled')) return c.json(answer, 200);
      const ids = store.immediate(() => store.jobs.cancel(jobId, clock.now()));
      if (ids.length === 0) {
        throw new ApiError('conflict', `nothing left to cancel: ${jobId} is ${statusOf(job)}; targets that started or finished cannot be cancelled`);
      }
      scheduler.targetsChanged(ids);
      const kept = job.targets.length - ids.length;
      answer.message = kept > 0 ? `Cancelled ${ids.length} target${ids.length === 1 ? '' : 's'} of ${jobId}; ${kept} had already started or finished` : `Cancelled ${jobId}`;
      return c.json(answer, 200);
    })
    .post('/approve', (c) => decide(c, 'approve'))
    .post('/reject', (c) => decide(c, 'reject'));

  function decide(c: Context<AppEnv>, action: 'approve' | 'reject') {
    const jobId = requireJobId(c);
    const user = c.get('user');
    const job = ownJob(deps, jobId, user);
    // agent-approval means a person decides: an agent may not approve, through MCP, what it made through MCP.
    if (action === 'approve' && user.agentApproval && job.source === 'mcp' && jobSourceOf(c) === 'mcp') {
      throw new ApiError('forbidden', `${jobId} was made by an agent and agent-approval is on: a person approves it (socialpub schedule approve ${jobId})`);
    }
    const now = clock.now();
    const ids = store.immediate(() => (action === 'approve' ? store.jobs.approve(jobId, now) : store.jobs.reject(jobId, now)));
    if (ids.length === 0) throw new ApiError('conflict', `${jobId} is not waiting for approval (status: ${statusOf(job)})`);
    scheduler.targetsChanged(ids);
    const body: UpdateResponse = {
      success: true,
      message: action === 'approve' ? `Approved ${jobId}` : `Rejected ${jobId}; its pending targets are cancelled`,
      post: presentPost(store.jobs.get(jobId) as JobRecord),
    };
    return c.json(body, 200);
  }
}
