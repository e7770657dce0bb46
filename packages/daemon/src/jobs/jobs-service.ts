import {
  deriveJobStatus,
  formatInstant,
  type CancelResponse,
  type PostSource,
  type PostComment,
  type Platform,
  type Post,
  type PublishRequest,
  type PublishResult,
  type UpdateRequest,
  type ValidateResult,
} from '@socialpub/core';
import type { PlatformAdapter } from '../platforms/adapter';
import type { MediaLookup } from '../ports/media';
import type { SchedulerHooks } from '../ports/scheduler';
import type { PostRecord, ListOptions, ListPosition } from '../store/jobs';
import { NO_TIMES } from '../store/job-times';
import type { PlatformPause } from '../store/platform-pauses';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { ServiceError, invalidInput } from '../util/service-error';
import { checkAccounts } from './account-checks';
import { checkPublish, checkPublishRequest, checkRules, type PublishCheck } from './check-publish';
import { changesRequestedEvent, heldAgainEvent, jobChangeEvent } from './job-events';
import { needsApproval } from './approval-rule';
import { isNotStarted, planUpdate } from './plan-update';
import { presentPost } from './present-post';
import { presentComment } from './present-review';
import type { ReviewActor } from '../store/review-history';
import { newId } from '../util/ids';
import type { HoldLookup } from './target-hold';
import { acceptTimed } from './accept-timed';
import { zoneUpdate } from './retime-zone';
import { repeatedCaptionWarnings } from './duplicate-captions';
import { userZone } from './user-zone';

export interface PostsServiceDeps {
  store: Store;
  clock: Clock;
  logger: RootLogger;
  /** Told after each commit which targets to re-read. */
  scheduler: SchedulerHooks;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** config.publicUrl: where prepared media is served from, for the platforms that fetch it. */
  publicBaseUrl: string | null;
  /** The simulator's base URL for sandbox connections, for the account checks (TikTok's creator info). */
  sandboxBaseUrl?: (platform: Platform, host: string) => string;
}

/** A job the service stored, as the API shows it, with a one-line account of the change. */
export interface PostChange {
  message: string;
  post: Post;
}

export interface PublishOptions {
  /**
   * Called inside the job's transaction with the answer and the time of acceptance, to
   * write what must commit with it (the HTTP layer's idempotency record).
   */
  alsoCommit?: (result: PublishResult, now: number) => void;
  /** How the request came (recorded on the job; `mcp` is held while the user's agent-approval is on). Default api. */
  source?: PostSource;
  /**
   * Hold the post for a person's approval whatever the request and the user's settings say
   * (publish_now too; a series: every occurrence): the caller's key is of the agent scope.
   */
  holdForApproval?: boolean;
}

export interface UpdateOptions {
  /** How the edit came: with agent-approval on, an edit through `mcp` needs a person's approval. Default api. */
  source?: PostSource;
  /** An agent key: captions and options change only while every target left waits for approval. */
  heldOnly?: boolean;
}

export interface DecideOptions {
  /** How the approval request came: with agent-approval on, `mcp` may not release a job made through `mcp`. Default api. */
  source?: PostSource;
  /** The decision came through a review link: recorded with the link (and its comment), and the event says `source: "review_link"` with the link's id. */
  reviewLink?: { id: string; comment: string | null };
  /** Reject: why (shown on the post as `rejection.reason`, and in the post.rejected event). */
  reason?: string | null;
  /** The content version the decision was made on (a review link's decision names it): refused with conflict when the post changed since. */
  version?: number;
  /** Who decides, for the approval history (the HTTP layer's review-actor.ts). Default: nobody named, from `source`; a review link's. */
  actor?: ReviewActor;
}

export interface RequestChangesOptions extends DecideOptions {
  /** What should change: the post's thread and approval history keep it. */
  comment: string;
}

export type PostsService = ReturnType<typeof createPostsService>;

/** The checked targets with the connection each `platforms` entry was checked against. */
const withAccounts = (check: Extract<PublishCheck, { ok: true }>) => check.targets.map((t) => ({ ...t, connectionId: check.accounts.get(t.accountKey)?.id ?? null }));

const statusOf = (job: PostRecord) => deriveJobStatus(job.targets.map((t) => t.status));

/**
 * The content service: every rule about jobs, between the front ends (HTTP routes, later
 * MCP) and the store. Each method takes the acting user and a parsed request, writes in one
 * durable transaction (the promise resolves once the change is on disk), tells the
 * scheduler after the commit, and returns the stored job. Refusals are ServiceErrors with
 * the API's codes.
 */
export function createPostsService(deps: PostsServiceDeps) {
  const { store, clock } = deps;
  const rules = { store, mediaLookup: deps.mediaLookup, adapters: deps.adapters, publicBaseUrl: deps.publicBaseUrl };
  const accounts = { store, clock, logger: deps.logger, adapters: deps.adapters, ...(deps.sandboxBaseUrl ? { sandboxBaseUrl: deps.sandboxBaseUrl } : {}) };

  /** The job, if it exists and belongs to the user: not_found when unknown, forbidden when another user's. */
  function ownJob(user: User, jobId: string): PostRecord {
    const job = store.jobs.get(jobId);
    if (!job) throw new ServiceError('not_found', `no job ${jobId}`);
    if (job.userId !== user.id) throw new ServiceError('forbidden', `job ${jobId} belongs to another user`);
    return job;
  }

  /** The pauses over a user's connections now, each read once per presentation (target-hold.ts). */
  function holdsOf(userId: string): HoldLookup {
    const now = clock.now();
    const seen = new Map<string, PlatformPause | null>();
    return {
      now,
      pauseOf(platform, connectionId = null) {
        const key = `${platform}\u0000${connectionId ?? ''}`;
        if (!seen.has(key)) seen.set(key, store.platformPauses.forConnection(userId, platform, now, connectionId));
        return seen.get(key) ?? null;
      },
    };
  }

  const present = (job: PostRecord, holds: HoldLookup = holdsOf(job.userId)) =>
    presentPost(job, store.jobTimes.get(job.id), store.rejections.get(job.id), holds, {
      approvals: store.reviewHistory.approvals(job.id),
      comments: store.reviewHistory.comments(job.id),
    });

  /** `present` for a page of jobs: their times, rejections and histories read in four statements, not four a job. */
  const presentPage = (jobs: readonly PostRecord[], holds: HoldLookup) => {
    const ids = jobs.map((j) => j.id);
    const times = store.jobTimes.getMany(ids);
    const rejections = store.rejections.getMany(ids);
    const history = store.reviewHistory.ofJobs(ids);
    return jobs.map((job) =>
      presentPost(job, times.get(job.id) ?? NO_TIMES, rejections.get(job.id) ?? null, holds, {
        approvals: history.approvals.get(job.id) ?? [],
        comments: history.comments.get(job.id) ?? [],
      }),
    );
  };

  /** Who acts, for the history: the caller's actor, else a review link's, else the request's source unnamed. */
  const actorOf = (opts: DecideOptions): ReviewActor => {
    if (opts.reviewLink) return { by: null, source: 'review_link', reviewLinkId: opts.reviewLink.id };
    return opts.actor ?? { by: null, source: opts.source ?? 'api', reviewLinkId: null };
  };
  const stored = (jobId: string) => present(store.jobs.get(jobId) as PostRecord);

  /**
   * The scheduler learns of targets only once their change is committed and durable. A
   * failure to notify must not turn a stored change into an error (the client would retry
   * and create the job twice); the scheduler's loader finds the targets anyway.
   */
  function changed(ids: readonly string[]) {
    if (ids.length === 0) return;
    try {
      deps.scheduler.targetsChanged(ids);
    } catch (error) {
      deps.logger.error('scheduler notification failed; its loader will pick the targets up', { error, targets: ids.length });
    }
  }

  /** The post event of a change, in its transaction, with the targets as they now are. */
  function recordChange(type: Parameters<typeof jobChangeEvent>[0], jobId: string, ids: readonly string[], now: number, extra?: Record<string, unknown>) {
    store.events.append(jobChangeEvent(type, store.jobs.get(jobId) as PostRecord, ids, now, extra));
  }

  const changedSince = (job: PostRecord, version: number) =>
    new ServiceError('conflict', `${job.id} changed since it was shown (decided on version ${version}, it is now version ${job.version}): read it again and decide on what it says now`, [
      { path: 'version', message: `the post is now version ${job.version}` },
    ]);

  async function decide(user: User, jobId: string, action: 'approve' | 'reject', opts: DecideOptions = {}): Promise<PostChange> {
    const job = ownJob(user, jobId);
    // agent-approval means a person decides: an agent may not approve, through MCP, what it wrote through MCP (made, or last edited).
    if (action === 'approve' && opts.source === 'mcp' && user.agentApproval && job.contentSource === 'mcp') {
      throw new ServiceError('forbidden', `${jobId} was made by an agent and agent-approval is on: a person approves it (socialpub schedule approve ${jobId})`);
    }
    if (opts.version !== undefined && opts.version !== job.version) throw changedSince(job, opts.version);
    const now = clock.now();
    const ids = await store.commits.durable(() => {
      // Fenced on the version inside the transaction too: an edit may have committed since the read above.
      if (opts.version !== undefined) {
        const current = store.jobs.get(jobId) as PostRecord;
        if (current.version !== opts.version) throw changedSince(current, opts.version);
      }
      const touched = action === 'approve' ? store.jobs.approve(jobId, now) : store.jobs.reject(jobId, now);
      const link = opts.reviewLink;
      if (touched.length > 0) {
        const reason = action === 'reject' ? (link ? link.comment : (opts.reason ?? null)) : null;
        const extra = {
          ...(link ? { source: 'review_link', review_link_id: link.id, comment: link.comment } : {}),
          ...(reason !== null ? { reason } : {}),
        };
        recordChange(action === 'approve' ? 'post.approved' : 'post.rejected', jobId, touched, now, extra);
        if (link) store.reviewLinks.recordDecision(link.id, { jobId, decision: action, comment: link.comment, decidedAt: now });
        if (action === 'reject') store.rejections.record(jobId, { reason, source: link ? 'review_link' : (opts.source ?? 'api'), reviewLinkId: link?.id ?? null, rejectedAt: now });
        const version = (store.jobs.get(jobId) as PostRecord).version;
        const comment = action === 'reject' ? reason : (link?.comment ?? null);
        store.reviewHistory.recordApproval(jobId, { ...actorOf(opts), action: action === 'approve' ? 'approved' : 'rejected', version, comment, at: now });
      }
      return touched;
    });
    if (ids.length === 0) throw new ServiceError('conflict', `${jobId} is not waiting for approval (status: ${statusOf(job)})`);
    changed(ids);
    return {
      message: action === 'approve' ? `Approved ${jobId}` : `Rejected ${jobId}; its pending targets are cancelled`,
      post: stored(jobId),
    };
  }

  /**
   * A reviewer asks for changes: the held targets move to changes_requested (never due),
   * the comment joins the thread and the history, post.changes_requested tells the writer.
   * An edit of the content sends the post back to review (`update`).
   */
  async function requestChanges(user: User, jobId: string, opts: RequestChangesOptions): Promise<PostChange> {
    const job = ownJob(user, jobId);
    if (opts.version !== undefined && opts.version !== job.version) throw changedSince(job, opts.version);
    const comment = opts.comment.trim();
    if (comment === '') throw invalidInput([{ path: 'comment', message: 'comment is required: say what should change' }]);
    const actor = actorOf(opts);
    const now = clock.now();
    const ids = await store.commits.durable(() => {
      const current = store.jobs.get(jobId) as PostRecord;
      if (opts.version !== undefined && current.version !== opts.version) throw changedSince(current, opts.version);
      const touched = store.jobs.requestChanges(jobId, now);
      if (touched.length > 0) {
        const entry = { ...actor, version: current.version, at: now };
        store.reviewHistory.recordApproval(jobId, { ...entry, action: 'changes_requested', comment });
        store.reviewHistory.addComment(jobId, { ...entry, id: newId('cmt'), body: comment });
        if (opts.reviewLink) store.reviewLinks.recordDecision(opts.reviewLink.id, { jobId, decision: 'request_changes', comment, decidedAt: now });
        store.events.append(changesRequestedEvent(store.jobs.get(jobId) as PostRecord, touched, now, { comment, actor }));
      }
      return touched;
    });
    if (ids.length === 0) throw new ServiceError('conflict', `${jobId} is not waiting for approval (status: ${statusOf(job)}): changes are asked of a post pending approval`);
    changed(ids);
    return { message: `Asked for changes to ${jobId}; it waits in changes_requested until it is edited`, post: stored(jobId) };
  }

  return {
    /** A job of the user as the API shows it. */
    get(user: User, jobId: string): Post {
      return present(ownJob(user, jobId));
    },

    /** A page of the user's jobs in (base time, id) order, and where the next page starts. */
    list(user: User, options: ListOptions): { posts: Post[]; next: ListPosition | null } {
      const page = store.jobs.list(user.id, options);
      const holds = holdsOf(user.id);
      return { posts: presentPage(page.jobs, holds), next: page.next };
    },

    /** Accepts a publish request: every check, then the job and its targets in one durable transaction. */
    async publish(user: User, request: PublishRequest, opts: PublishOptions = {}): Promise<PublishResult> {
      const now = clock.now();
      const check = checkPublishRequest(rules, user, request, now);
      if (!check.ok) throw new ServiceError(check.code, check.message, check.details);
      const media = deps.mediaLookup.describe(user.id, request.media_urls ?? []);
      const account = await checkAccounts(accounts, user.id, { targets: withAccounts(check), media, platformOptions: request.platform_options });
      if (account.issues.length > 0) throw invalidInput(account.issues);
      // One transaction, one fsync: the job (a series: its first occurrences), its targets,
      // its time facts and what the caller commits with them, answered once on disk
      // (group-committed; see store/commits.ts).
      // Held as if the request asked for approval: the job records it, and a series' template
      // holds each later occurrence too.
      const accepting = opts.holdForApproval ? { ...check, request: { ...check.request, require_approval: true } } : check;
      const { result, targetIds } = await store.commits.durable(() => {
        const accepted = acceptTimed(store, user, accepting, now, opts.source);
        if (opts.holdForApproval) accepted.result.message = `Waiting for a person's approval (every post of an agent key is) before publishing to ${request.platforms.join(', ')}: socialpub schedule approve ${accepted.result.job_id}`;
        if (account.warnings.length > 0) accepted.result.warnings = [...(accepted.result.warnings ?? []), ...account.warnings];
        opts.alsoCommit?.(accepted.result, now);
        return accepted;
      });
      changed(targetIds);
      return result;
    },

    /** The dry run of publish: the same checks on the raw body, reported instead of stored. */
    async validate(user: User, body: unknown): Promise<ValidateResult> {
      const check = checkPublish(rules, user, body, clock.now());
      const targets = check.targets.map((t) => ({ platform: t.platform, type: t.type, scheduled_for: formatInstant(t.dueAt) }));
      if (!check.ok) return { success: true, valid: false, targets, errors: check.details.map((d) => ({ ...d, code: check.code })), warnings: [] };
      const media = deps.mediaLookup.describe(user.id, check.request.media_urls ?? []);
      const account = await checkAccounts(accounts, user.id, { targets: withAccounts(check), media, platformOptions: check.request.platform_options });
      if (account.issues.length > 0) return { success: true, valid: false, targets, errors: account.issues.map((d) => ({ ...d, code: 'invalid_request' })), warnings: [] };
      return { success: true, valid: true, targets, errors: [], warnings: [...repeatedCaptionWarnings(check.request, check.timing.series?.occurrences.length ?? 1), ...account.warnings] };
    },

    /**
     * Edits a job's captions and times; the targets not yet started move, the rules run again
     * on the new captions. `heldOnly` (an agent key): what the post says (captions, options)
     * changes only while every target left is waiting for approval, so an agent cannot
     * rewrite a post a person let through; it may still re-time it. A content edit under an
     * approval rule (approval-rule.ts) sends the scheduled targets back to pending_approval.
     */
    async update(user: User, jobId: string, upd: UpdateRequest, opts: UpdateOptions = {}): Promise<PostChange> {
      const job = ownJob(user, jobId);
      const now = clock.now();
      const movable = job.targets.filter((t) => isNotStarted(t.status));
      if (movable.length === 0) {
        throw new ServiceError('conflict', `nothing left to change: every target of ${jobId} has started or finished (job status: ${statusOf(job)})`);
      }
      const editsContent = upd.caption !== undefined || upd.platform_captions !== undefined || upd.platform_options !== undefined;
      if (opts.heldOnly && editsContent && movable.some((t) => t.status !== 'pending_approval' && t.status !== 'changes_requested')) {
        throw new ServiceError('insufficient_scope', `${jobId} is not waiting for approval: editing its captions or options needs a key of scope full (an agent key edits posts waiting for approval, and may re-time or cancel any)`, [
          { path: 'scope', message: 'needs full', required_scope: 'full', key_scope: 'agent' },
        ]);
      }
      const zoned = zoneUpdate(job, store.jobTimes.get(jobId), upd, userZone(store, user.id));
      if (!zoned.ok) throw invalidInput(zoned.issues);
      const { plan, issues } = planUpdate(job, movable, zoned.update, now, zoned.zone);
      if (!plan) throw invalidInput(issues);
      const captionEdited = upd.caption !== undefined || upd.platform_captions !== undefined;
      if (captionEdited || upd.platform_options !== undefined) {
        const media = deps.mediaLookup.describe(user.id, job.mediaUrls);
        const input = { caption: plan.caption, platformCaptions: plan.platformCaptions, media, targets: movable, platformOptions: plan.platformOptions, userId: user.id };
        for (const d of checkRules(rules, input)) {
          // Media and kinds were accepted with the job; only what the edit changed is judged
          // (options also against an edited caption: Threads counts link_attachment among its links).
          const judged = d.path.startsWith('platform_options') || (captionEdited && (d.path.startsWith('caption') || d.path.startsWith('platform_captions')));
          if (judged) issues.push(d);
        }
      }
      if (issues.length > 0) throw invalidInput(issues);
      const changedOptions: Record<string, unknown> = upd.platform_options ?? {};
      const optionTargets = movable.filter((t) => changedOptions[t.accountKey] !== undefined);
      if (optionTargets.length > 0) {
        // Changed options meet the account's current rules (TikTok's creator info) as at acceptance.
        const media = deps.mediaLookup.describe(user.id, job.mediaUrls);
        const account = await checkAccounts(accounts, user.id, { targets: optionTargets, media, platformOptions: plan.platformOptions });
        if (account.issues.length > 0) throw invalidInput(account.issues);
      }

      const { moves, ...fields } = plan;
      // What is published changed (not merely when): a new version, and under an approval
      // rule the approved targets go back to review — approval binds to what was approved.
      const contentEdited =
        plan.caption !== job.caption ||
        JSON.stringify(plan.platformCaptions) !== JSON.stringify(job.platformCaptions) ||
        JSON.stringify(plan.platformOptions) !== JSON.stringify(job.platformOptions);
      const writer = opts.source ?? 'api';
      const review = contentEdited && needsApproval(user, job.requireApproval, writer);
      const { moved, held } = await store.commits.durable(() => {
        store.jobs.update(jobId, fields, now, contentEdited ? writer : null);
        store.jobTimes.set(jobId, user.id, zoned.times);
        const ids = store.jobs.retime(jobId, moves, now);
        if (ids.length > 0) recordChange('post.retimed', jobId, ids, now);
        // Asked-for changes made: the post goes back to review, whatever the approval rule.
        const again = [...(review ? store.jobs.holdAgain(jobId, now) : []), ...(contentEdited ? store.jobs.resubmit(jobId, now) : [])];
        if (again.length > 0) store.events.append(heldAgainEvent(store.jobs.get(jobId) as PostRecord, again, now));
        return { moved: ids, held: again };
      });
      changed([...new Set([...moved, ...held])]);
      const retimed = moved.length > 0 ? `; ${moved.length} target${moved.length === 1 ? '' : 's'} re-timed` : '';
      const back = held.length > 0 ? `; the edit goes back for approval before it is published (socialpub schedule approve ${jobId})` : '';
      return { message: `Updated ${jobId}${retimed}${back}`, post: stored(jobId) };
    },

    /** Cancels the targets not yet started; cancelling a cancelled job again is the same success. */
    async cancel(user: User, jobId: string): Promise<CancelResponse> {
      const job = ownJob(user, jobId);
      const answer: CancelResponse = { success: true, message: `Cancelled ${jobId}`, job_id: jobId, status: 'cancelled' };
      if (job.targets.length > 0 && job.targets.every((t) => t.status === 'cancelled')) return answer;
      const now = clock.now();
      const ids = await store.commits.durable(() => {
        const touched = store.jobs.cancel(jobId, now);
        if (touched.length > 0) recordChange('post.cancelled', jobId, touched, now);
        return touched;
      });
      if (ids.length === 0) {
        throw new ServiceError('conflict', `nothing left to cancel: ${jobId} is ${statusOf(job)}; targets that started or finished cannot be cancelled`);
      }
      changed(ids);
      const kept = job.targets.length - ids.length;
      answer.message = kept > 0 ? `Cancelled ${ids.length} target${ids.length === 1 ? '' : 's'} of ${jobId}; ${kept} had already started or finished` : `Cancelled ${jobId}`;
      return answer;
    },

    /** Releases a job held for approval: its pending targets are scheduled (due now if their time has passed). */
    approve: (user: User, jobId: string, opts?: DecideOptions) => decide(user, jobId, 'approve', opts),
    /** Refuses a job held for approval: its pending targets are cancelled. */
    reject: (user: User, jobId: string, opts?: DecideOptions) => decide(user, jobId, 'reject', opts),
    requestChanges,

    /** A post's comment thread, oldest first. */
    comments(user: User, jobId: string): PostComment[] {
      ownJob(user, jobId);
      return store.reviewHistory.comments(jobId).map(presentComment);
    },

    /** Adds a comment to a post's thread (on its current version). */
    async addComment(user: User, jobId: string, body: string, actor: ReviewActor): Promise<PostComment> {
      const job = ownJob(user, jobId);
      const text = body.trim();
      if (text === '') throw invalidInput([{ path: 'body', message: 'body must not be empty' }]);
      const record = { ...actor, id: newId('cmt'), body: text, version: job.version, at: clock.now() };
      await store.commits.durable(() => store.reviewHistory.addComment(jobId, record));
      return presentComment(record);
    },
  };
}
