import { COLLECTION_AGES_MS, parseAccountKey, type Platform } from '@socialpub/core';
import { connectionCall, type ConnectionCallDeps } from '../platforms/connection-call';
import { PublishError, RateLimitedError } from '../platforms/errors';
import { MissingScopeError, type PostAnalytics } from '../platforms/post-analytics';
import type { DueTarget } from '../store/post-metrics';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { nextCollection } from './collection-stage';

/** Why a reading of one target did not happen. */
export interface ReadingProblem {
  code: string;
  message: string;
}

export interface CollectorDeps {
  store: Store;
  clock: Clock;
  logger: RootLogger;
  /** The platforms' readers (platforms/registry.ts createAnalyticsReaders); a platform without one is `not_supported`. */
  readers: ReadonlyMap<Platform, PostAnalytics>;
  /** How calls on a connection's behalf are made (tokens stored, sandbox connections to the simulators). */
  calls: ConnectionCallDeps;
  /** Whether publishing has the floor on a connection now (the publisher's connectionBusy). Default: never. */
  publishingBusy?: (userId: string, platform: Platform, connectionId: string | null) => boolean;
  /**
   * How many targets the publisher of this process has waiting or in flight (publisher.busy).
   * While it has any, the schedule's looks wait (a burst's CPU and database are publishing's),
   * at most `maxWaitForPublishingMs` in a row. Default: none.
   */
  publishingBacklog?: () => number;
  /** The longest the schedule's looks wait in a row for the publisher's backlog (ms), so a steady stream of posts does not starve them. Default 5 minutes. */
  maxWaitForPublishingMs?: number;
  /** A publish of the user on the platform due within this much makes collection wait (ms). Default 2 minutes. */
  publishAheadMs?: number;
  /** After yielding to publishing, look again this much later (ms). Default 1 minute. */
  yieldMs?: number;
  /** After a failed reading (the network refused, the connection is gone), try again this much later (ms). Default 1 hour. */
  retryMs?: number;
  /** Readings kept this long (ms); older ones are pruned. Default 400 days (SOCIALPUB_ANALYTICS_RETENTION_DAYS). */
  retentionMs?: number;
  /** How often the schedule is looked at (ms). Default 1 minute. */
  tickMs?: number;
  /** Targets taken per look at the schedule. Default 500. */
  batchLimit?: number;
  /** Connections the schedule's readings go to at once (a publish never waits on them: they pass over busy connections). Default 8. */
  connectionsAtOnce?: number;
  /** Bound on one connection's readings in one go (ms). Default 60 s. */
  timeoutMs?: number;
}

export type Collector = ReturnType<typeof createCollector>;

/** How long after publishing a target joins the schedule. */
const ENROL_AFTER_MS = 5 * 60_000;

const groupKey = (t: DueTarget) => `${t.userId}\u0000${t.platform}\u0000${t.connectionId ?? ''}\u0000${parseAccountKey(t.accountKey)?.label ?? ''}`;

/**
 * The analytics collector (docs/api.md "Analytics"): reads published posts' figures from
 * their networks about 1 h, 24 h, 72 h, 7 d and 30 d after publishing, and on demand.
 * Batched per connection (the network's batch size), within a budget per connection that
 * leaves the network's limit to publishing, and never at a publish's cost: a connection
 * with targets waiting or in flight, paused by a rate limit, or with a publish due within
 * `publishAheadMs` is passed over and looked at again later.
 */
export function createCollector(deps: CollectorDeps) {
  const { store, clock } = deps;
  const publishAheadMs = deps.publishAheadMs ?? 2 * 60_000;
  const yieldMs = deps.yieldMs ?? 60_000;
  const retryMs = deps.retryMs ?? 3_600_000;
  const retentionMs = deps.retentionMs ?? 400 * 86_400_000;
  let loop: { ctl: AbortController; done: Promise<void> } | null = null;
  /** Since when the schedule's looks have waited for the publisher's backlog (null: not waiting). */
  let waitingSince: number | null = null;

  /**
   * Reads one connection's targets. `onDemand`: a refresh asked for them (yields and used
   * budgets are answered as problems, nothing postponed); else the schedule's readings
   * (a yield postpones them). Returns the problem of each target that was not read.
   */
  async function collectConnection(given: DueTarget[], onDemand: boolean): Promise<Map<string, ReadingProblem>> {
    let targets = given;
    const problems = new Map<string, ReadingProblem>();
    const first = targets[0]!;
    const now = clock.now();
    const stored = (t: DueTarget, p: ReadingProblem, nextAt: number | null) => {
      problems.set(t.targetId, p);
      store.commits.relaxed(() => store.postMetrics.noteProblem(t, { ...p, at: now }, t.stage, nextAt));
    };
    /** Not now, with no fault of the target's: postponed (the schedule) or answered (a refresh). */
    const notNow = (list: DueTarget[], p: ReadingProblem, until: number) => {
      for (const t of list) {
        problems.set(t.targetId, p);
        if (!onDemand) store.commits.relaxed(() => store.postMetrics.postpone(t.targetId, until));
      }
    };
    // Publishing first: a connection with targets waiting or in flight, paused, or a publish due soon is passed over (cheapest check first).
    if (deps.publishingBusy?.(first.userId, first.platform, first.connectionId) || store.postMetrics.publishDueBy(first.userId, first.platform, now + publishAheadMs)) {
      notNow(targets, { code: 'publishing_first', message: `a publish on this ${first.platform} account goes first; the figures are read once it is done` }, now + yieldMs);
      return problems;
    }
    const reader = deps.readers.get(first.platform);
    if (!reader) {
      for (const t of targets) stored(t, { code: 'not_supported', message: `socialpub does not read ${first.platform} figures yet` }, null);
      return problems;
    }
    const label = parseAccountKey(first.accountKey)?.label ?? null;
    const credentials = store.credentials.credentialsFor(first.userId, first.platform, first.connectionId, label);
    if (!credentials) {
      const again = `socialpub connect ${first.platform}${label ? ` --label ${label}` : ''}`;
      for (const t of targets) stored(t, { code: 'platform_not_connected', message: `${t.accountKey} is not connected: connect it again (${again}) to read its figures` }, now + retryMs);
      return problems;
    }
    const refusal = reader.refusal(credentials);
    if (refusal) {
      for (const t of targets) stored(t, { code: 'missing_scope', message: refusal }, now + retryMs);
      return problems;
    }
    const readable = targets.filter((t) => {
      const why = reader.unreadable?.(t.postId) ?? null;
      if (why) stored(t, { code: 'not_readable', message: why }, null);
      return why === null;
    });
    if (readable.length === 0) return problems;
    targets = readable;
    // A network's 429 to a reading holds the connection's readings (in the database: a restart and the other daemons keep to it).
    const pauseScope = `analytics:${credentials.connectionId}`;
    const pause = store.postMetrics.readingsPaused(pauseScope, now);
    if (pause) {
      notNow(targets, { code: 'rate_limited', message: `${first.platform} asked to wait before the next reading (until ${new Date(pause.until).toISOString()}): ${pause.reason}` }, pause.until);
      return problems;
    }
    const signal = AbortSignal.timeout(deps.timeoutMs ?? 60_000);
    const ctx = connectionCall(deps.calls, first.platform, credentials, signal, { op: 'analytics' });
    const budgetScope = pauseScope;
    for (let i = 0; i < targets.length; i += reader.batchSize) {
      const chunk = targets.slice(i, i + reader.batchSize);
      const take = store.commits.relaxed(() => store.rateWindows.take(budgetScope, `analytics:${first.platform}`, reader.budget.calls, reader.budget.windowMs, clock.now()));
      if (!take.allowed) {
        notNow(targets.slice(i), { code: 'budget_used', message: `the readings allowed on this ${first.platform} account (${reader.budget.calls} per ${reader.budget.windowMs / 60_000} minutes, the rest left to publishing) are used until ${new Date(take.resetAt).toISOString()}` }, take.resetAt);
        return problems;
      }
      let figures;
      try {
        figures = await reader.read(ctx, chunk.map((t) => t.postId));
      } catch (err) {
        const at = clock.now();
        if (err instanceof RateLimitedError) {
          store.commits.relaxed(() => store.postMetrics.pauseReadings(pauseScope, err.until, err.message));
          notNow(targets.slice(i), { code: 'rate_limited', message: err.message }, err.until);
          return problems;
        }
        if (err instanceof MissingScopeError) {
          // The network says the grant lacks the permission: every target of the connection, with how to reconnect.
          for (const t of targets.slice(i)) stored(t, { code: 'missing_scope', message: err.message }, at + retryMs);
          return problems;
        }
        const code = err instanceof PublishError ? (err.platformCode ?? err.kind) : 'error';
        deps.logger.warn('figures not read', { platform: first.platform, targets: chunk.length, code, error: err instanceof Error ? err.message : String(err) });
        for (const t of chunk) stored(t, { code, message: err instanceof Error ? err.message : String(err) }, at + retryMs);
        continue;
      }
      const at = clock.now();
      // The readings, the schedule and their post.metrics_updated events in one transaction (webhooks fan out from it).
      await store.commits.durable(() => {
        for (const t of chunk) {
          const f = figures.get(t.postId);
          if (!f) {
            problems.set(t.targetId, { code: 'not_found', message: `${t.platform} no longer has post ${t.postId}` });
            store.postMetrics.noteProblem(t, { code: 'not_found', message: `${t.platform} no longer has post ${t.postId}`, at }, t.stage, null);
            continue;
          }
          const next = nextCollection(t.publishedAt, t.stage, at);
          store.postMetrics.recordReading(t, { collectedAt: at, metrics: f.metrics, platformMetrics: f.platformMetrics }, next.stage, next.nextAt);
        }
      });
    }
    return problems;
  }

  /** Groups targets by connection and reads them: on demand all connections at once, on the schedule a few at a time. */
  async function collect(targets: DueTarget[], onDemand: boolean, yieldToBacklog = false): Promise<Map<string, ReadingProblem>> {
    const groups = new Map<string, DueTarget[]>();
    for (const t of targets) {
      const k = groupKey(t);
      const g = groups.get(k);
      if (g) g.push(t);
      else groups.set(k, [t]);
    }
    const out = new Map<string, ReadingProblem>();
    const run = async (g: DueTarget[]) => {
      try {
        for (const [id, p] of await collectConnection(g, onDemand)) out.set(id, p);
      } catch (err) {
        // Nothing a network answers stops the collector: the group is tried again later.
        deps.logger.error('figures collection failed', { platform: g[0]!.platform, error: err instanceof Error ? err.message : String(err) });
        for (const t of g) out.set(t.targetId, { code: 'error', message: 'the figures could not be read; they are tried again later' });
      }
    };
    if (onDemand) {
      await Promise.all([...groups.values()].map(run));
      return out;
    }
    // The schedule's readings: a few connections at a time (each connection's own calls stay in order). A burst that
    // starts meanwhile stops the connections not begun yet, with nothing written: they stay due for the next look.
    const queue = [...groups.values()];
    const worker = async () => {
      for (let g = queue.shift(); g; g = queue.shift()) {
        if (yieldToBacklog && (deps.publishingBacklog?.() ?? 0) > 0) {
          queue.length = 0;
          return;
        }
        await run(g);
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.connectionsAtOnce ?? 8, queue.length) }, worker));
    return out;
  }

  return {
    /**
     * One look at the schedule: enrols newly published targets, reads those due, prunes old
     * readings. Returns how many targets were due (0 when it waited for the publisher's backlog).
     */
    async collectDue(): Promise<number> {
      const now = clock.now();
      // While this process publishes anything, the schedule waits whole (not even its look at the database), up to a bound.
      const backlog = deps.publishingBacklog?.() ?? 0;
      if (backlog > 0) {
        waitingSince ??= now;
        if (now - waitingSince < (deps.maxWaitForPublishingMs ?? 5 * 60_000)) return 0;
      }
      // Past the bound with the publisher still busy, this look goes ahead whole (the per-connection rules still hold).
      const forced = backlog > 0;
      waitingSince = null;
      // Enrolled a few minutes after publishing (their first reading is an hour after): a burst's own targets are not written to again while it runs.
      store.commits.relaxed(() => store.postMetrics.enrolPublished(COLLECTION_AGES_MS[0], now - ENROL_AFTER_MS, deps.batchLimit ?? 500));
      const due = store.postMetrics.due(now, now + publishAheadMs, deps.batchLimit ?? 500);
      if (due.length > 0) await collect(due, false, !forced);
      store.commits.relaxed(() => (store.postMetrics.prune(now - retentionMs), store.postMetrics.prunePauses(now)));
      return due.length;
    },
    /** Reads a job's published targets now (POST /analytics/refresh); the problems of those not read, by target id. */
    refreshJob(jobId: string): Promise<Map<string, ReadingProblem>> {
      return collect(store.postMetrics.publishedOfJob(jobId), true);
    },
    /** Looks at the schedule every `tickMs` until stop(). */
    start(): void {
      if (loop) return;
      const ctl = new AbortController();
      const tickMs = deps.tickMs ?? 60_000;
      const done = (async () => {
        while (!ctl.signal.aborted) {
          try {
            await this.collectDue();
          } catch (err) {
            deps.logger.error('figures collection failed', { error: err instanceof Error ? err.message : String(err) });
          }
          await clock.sleep(tickMs, ctl.signal).catch(() => undefined);
        }
      })();
      loop = { ctl, done };
    },
    async stop(): Promise<void> {
      if (!loop) return;
      loop.ctl.abort();
      await loop.done;
      loop = null;
    },
  };
}
