import type { PublishOutcome, ReconcileResult } from '../adapter';
import { OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError } from '../errors';
import { mergePatch } from '../shared/merge-patch';
import { GraphApiError, type Params } from './graph-client';
import type { MetaRun } from './meta-run';

/** What differs between Instagram's and Threads' container APIs (docs/reference/platforms.md §1.1, §4.1). */
export interface ContainerApi {
  label: string;
  createEdge: string;
  publishEdge: string;
  limitEdge: string;
  statusFields: string;
  /** The container's status; `UNKNOWN` when the answer carries none (never taken for IN_PROGRESS). */
  readStatus(body: Record<string, unknown>): { code: string; message: string | null };
  /** The edge listing published media of this unit kind (for recovering a media id). */
  listEdge(kind: UnitKind): string;
  listFields: string;
  textField: 'caption' | 'text';
  /** Status polling cadence and patience. */
  pollIntervalMs: number;
  maxPollMs: number;
}

export type UnitKind = 'post' | 'story';

/** One thing published with one publish call: a post (maybe a carousel) or one story. */
export interface Unit {
  key: string;
  kind: UnitKind;
  caption: string | null;
  /** Carousel children, by media index. */
  children?: (string | null)[];
  containerId?: string;
  /** Set just before the publish call: from here on the outcome must be established, never assumed. */
  publishCalledAt?: number;
  mediaId?: string;
  permalink?: string | null;
  /**
   * Set when the container was made ahead of the due time (prepare()): when, and the
   * parameters it was made with. Taken up by the attempt only if they still fit.
   */
  prepared?: { at: number; params: string };
}

/** How long a container made ahead stays worth publishing unread (Threads keeps one 24 h; the preparation is made a minute ahead). */
const PREPARED_FRESH_MS = 60 * 60_000;

/** The parameters a container is made with, as one comparable string (absent ones dropped, keys in order). */
function paramsKey(params: Params): string {
  return JSON.stringify(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export interface ContainerCheckpoint {
  units?: Record<string, Unit>;
}

/**
 * The container sequence shared by Instagram and Threads: create (checkpointed), poll at
 * the platform's cadence, publish once, and establish the outcome from the container's
 * own status (`PUBLISHED`) whenever an answer was lost, so a post is never made twice.
 */
export class ContainerFlow {
  readonly units: Record<string, Unit>;
  /** The units as last saved, so a save can delete what was dropped (json_patch keeps what a patch omits). */
  #saved: Record<string, Unit>;
  /** Containers this run created (not read from a checkpoint): they cannot be published or expired yet. */
  readonly #createdNow = new Set<string>();
  /** Containers whose publish call ensureContainer marked as being made (`publishNext`), this run. */
  readonly #publishingNow = new Set<string>();

  constructor(
    readonly run: MetaRun,
    readonly api: ContainerApi,
    readonly accountId: string,
  ) {
    const saved = (run.ctx.checkpoint.data as ContainerCheckpoint).units ?? {};
    this.units = structuredClone(saved);
    this.#saved = structuredClone(saved);
  }

  /** Nothing made yet, but maybe a container made ahead (never published: only an attempt publishes). */
  get fresh(): boolean {
    return Object.values(this.units).every((u) => u.prepared !== undefined || (!u.containerId && !(u.children ?? []).some(Boolean)));
  }

  unit(key: string, kind: UnitKind, caption: string | null): Unit {
    this.units[key] ??= { key, kind, caption };
    const unit = this.units[key];
    // A unit only made ahead takes the caption the post has now (it may have been edited since).
    if (unit.prepared) unit.caption = caption;
    return unit;
  }

  async save(): Promise<void> {
    const patch = mergePatch(this.#saved as Record<string, unknown>, this.units as Record<string, unknown>);
    this.#saved = structuredClone(this.units);
    if (Object.keys(patch).length > 0) await this.run.ctx.checkpoint.save({ units: patch });
  }

  private get clock() {
    return this.run.ctx.clock;
  }

  /** Refuses early when the publishing quota is used up, before creating containers that would expire. */
  async checkQuota(): Promise<void> {
    const limit = await this.readLimit();
    if (limit && limit.usage >= limit.total) {
      throw new RateLimitedError(`${this.api.label}: the publishing quota is used up (${limit.usage} of ${limit.total} posts in ${limit.durationS / 3600} h)`, {
        until: this.clock.now() + limit.durationS * 1000,
        platformCode: 'quota_exhausted',
      });
    }
  }

  async readLimit(): Promise<{ usage: number; total: number; durationS: number } | null> {
    const body = await this.run.call<{ data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[] }>(`${this.accountId}/${this.api.limitEdge}`, {
      params: { fields: 'quota_usage,config' },
    });
    const row = body.data?.[0];
    if (!row || typeof row.quota_usage !== 'number' || typeof row.config?.quota_total !== 'number') return null;
    return { usage: row.quota_usage, total: row.config.quota_total, durationS: row.config.quota_duration ?? 86_400 };
  }

  /**
   * Creates the container once (checkpointed before anything else happens). `publishNext`:
   * the publish call follows at once, with no status read (a Threads TEXT container, see
   * publish()), so the one checkpoint also says the publish call is being made — one durable
   * commit between the two calls instead of two. A crash before that call leaves
   * `publishCalledAt` set, which is settled as for any publish call of unknown outcome: the
   * container's status (FINISHED: not published, published once; PUBLISHED: found).
   */
  async ensureContainer(unit: Unit, params: Params, opts: { publishNext?: boolean } = {}): Promise<string> {
    if (unit.prepared) {
      const made = unit.containerId;
      const fits = made !== undefined && unit.prepared.params === paramsKey(params) && this.clock.now() - unit.prepared.at < PREPARED_FRESH_MS;
      delete unit.prepared;
      if (fits) {
        // Made ahead for exactly this post, recently, and never published (only an attempt
        // publishes): taken up as if made now, so the publish call follows with no read.
        this.#createdNow.add(made);
        if (opts.publishNext && unit.publishCalledAt === undefined) {
          unit.publishCalledAt = this.clock.now();
          this.#publishingNow.add(made);
        }
        await this.save();
        return made;
      }
      // Made for other content (the post was edited since) or long ago: left unpublished to
      // expire on the platform, and a new one is made.
      delete unit.containerId;
    }
    if (unit.containerId) return unit.containerId;
    const body = await this.run.call<{ id: string }>(`${this.accountId}/${this.api.createEdge}`, { method: 'POST', params });
    unit.containerId = String(body.id);
    this.#createdNow.add(unit.containerId);
    if (opts.publishNext && unit.publishCalledAt === undefined) {
      unit.publishCalledAt = this.clock.now();
      this.#publishingNow.add(unit.containerId);
    }
    await this.save();
    return unit.containerId;
  }

  /**
   * Makes the unit's container ahead of the due time (PlatformAdapter.prepare), marked with
   * when and with what; nothing is published. ensureContainer() takes it up if it still fits.
   */
  async prepareContainer(unit: Unit, params: Params): Promise<void> {
    if (unit.containerId) return;
    const body = await this.run.call<{ id: string }>(`${this.accountId}/${this.api.createEdge}`, { method: 'POST', params });
    unit.containerId = String(body.id);
    unit.prepared = { at: this.clock.now(), params: paramsKey(params) };
    await this.save();
  }

  async ensureChild(unit: Unit, index: number, count: number, params: Params): Promise<string> {
    unit.children ??= Array.from({ length: count }, () => null);
    const existing = unit.children[index];
    if (existing) return existing;
    const body = await this.run.call<{ id: string }>(`${this.accountId}/${this.api.createEdge}`, { method: 'POST', params });
    unit.children[index] = String(body.id);
    await this.save();
    return unit.children[index] as string;
  }

  async status(containerId: string): Promise<{ code: string; message: string | null }> {
    const body = await this.run.call<Record<string, unknown>>(containerId, { params: { fields: this.api.statusFields } });
    return this.api.readStatus(body);
  }

  /**
   * Polls until the container is FINISHED (or already PUBLISHED). ERROR fails the target
   * with the platform's message; EXPIRED drops the container so the next attempt makes a
   * new one; still processing past the patience limit retries later from the checkpoint.
   */
  async waitReady(unit: Unit, containerId: string): Promise<'FINISHED' | 'PUBLISHED'> {
    const started = this.clock.now();
    for (;;) {
      const st = await this.status(containerId);
      if (st.code === 'FINISHED' || st.code === 'PUBLISHED') return st.code;
      if (st.code === 'UNKNOWN') throw await this.lostContainer(unit, containerId);
      if (st.code === 'ERROR') {
        throw new PermanentError(`${this.api.label} could not process the media: ${st.message ?? 'unknown error'}`, { platformCode: `container_error${st.message ? `:${st.message}` : ''}`.slice(0, 120) });
      }
      if (st.code === 'EXPIRED') {
        this.forget(unit, containerId);
        await this.save();
        throw new RetryableError(`${this.api.label}: container ${containerId} expired before it was published; a new one will be made`, { platformCode: 'container_expired' });
      }
      if (this.clock.now() - started >= this.api.maxPollMs) {
        throw new RetryableError(`${this.api.label}: the media is still processing after ${Math.round(this.api.maxPollMs / 60_000)} min; will check again`, { after: this.api.pollIntervalMs });
      }
      await this.clock.sleep(this.api.pollIntervalMs, this.run.ctx.signal);
    }
  }

  /**
   * The platform answered for the container without a status (it no longer knows it, or
   * the read is partial). Before the publish call nothing can have been posted: drop it and
   * make a new one at once. After it the outcome cannot be proven: outcome unknown, at once,
   * rather than polling a status that never comes.
   */
  private async lostContainer(unit: Unit, containerId: string): Promise<RetryableError | OutcomeUnknownError> {
    if (unit.publishCalledAt !== undefined && unit.containerId === containerId) {
      return new OutcomeUnknownError(`${this.api.label}: container ${containerId} reports no status after the publish call; the post may or may not exist`, { platformCode: 'container_status_unknown' });
    }
    this.forget(unit, containerId);
    await this.save();
    return new RetryableError(`${this.api.label}: container ${containerId} reports no status; a new one will be made`, { platformCode: 'container_status_unknown' });
  }

  private forget(unit: Unit, containerId: string): void {
    if (unit.containerId === containerId) delete unit.containerId;
    if (unit.children) {
      const i = unit.children.indexOf(containerId);
      if (i >= 0) unit.children[i] = null;
      // A carousel parent made from an expired child is useless too.
      if (i >= 0) delete unit.containerId;
    }
  }

  /**
   * Publishes the unit's container exactly once; resumes safely after a lost answer or a crash.
   * `needsNoProcessing` (a Threads TEXT container: nothing to fetch or transcode) skips the
   * status read before the publish call when this run made the container: the platform
   * refuses to publish a container that is not ready (9007 / 2207027), and that refusal
   * takes the polling path below, so the read only cost a call in a row before the post.
   * A container from a checkpoint is always read first (it may be published or expired).
   */
  async publish(unit: Unit, opts: { needsNoProcessing?: boolean } = {}): Promise<void> {
    if (unit.mediaId) return;
    const cid = unit.containerId;
    if (!cid) throw new Error(`publish before the container of ${unit.key} exists`);
    // Resumed: an earlier attempt (not ensureContainer just now) marked the publish call made.
    const resumed = unit.publishCalledAt !== undefined && !this.#publishingNow.has(cid);
    if (resumed) {
      // An earlier attempt called publish and never learnt the outcome: the container knows.
      const st = await this.status(cid);
      if (st.code === 'PUBLISHED') return this.recover(unit);
      // Any status but PUBLISHED says the call did not take; no status at all proves nothing.
      if (st.code === 'UNKNOWN') {
        throw new OutcomeUnknownError(`${this.api.label}: container ${cid} is ${st.code} after the publish call; the post may or may not exist`, { platformCode: 'container_status_unknown' });
      }
    }
    const readFirst = !(opts.needsNoProcessing && this.#createdNow.has(cid) && !resumed);
    if (readFirst && (await this.waitReady(unit, cid)) === 'PUBLISHED') return this.recover(unit);
    unit.publishCalledAt ??= this.clock.now();
    await this.save();
    for (let tries = 0; ; tries++) {
      try {
        const body = await this.run.call<{ id: string }>(`${this.accountId}/${this.api.publishEdge}`, { method: 'POST', params: { creation_id: cid } }, { publishing: true });
        unit.mediaId = String(body.id);
        await this.save();
        return;
      } catch (err) {
        if (err instanceof RetryableError && /^9007\b|2207027/.test(err.platformCode ?? '') && tries < 5) {
          // Not ready after all (docs/reference/platforms.md §1.1): wait a polling interval, re-check, publish again.
          await this.clock.sleep(this.api.pollIntervalMs, this.run.ctx.signal);
          if ((await this.waitReady(unit, cid)) === 'PUBLISHED') return this.recover(unit);
          continue;
        }
        if (err instanceof OutcomeUnknownError) return this.settleUnknown(unit, cid, err);
        // Publishing again after a publish call is safe because the platform refuses to publish
        // one container twice ("already been published", which the simulators enforce): that
        // answer means the earlier call made the post, so find it instead of posting again.
        if (resumed && alreadyPublished(err)) return this.recover(unit);
        if (err instanceof RateLimitedError && /^9(\/|$)/.test(err.platformCode ?? '')) throw await this.quotaError(err);
        throw err;
      }
    }
  }

  /** The publish answer was lost: read the container now; only if that fails too is the outcome unknown. */
  private async settleUnknown(unit: Unit, cid: string, original: OutcomeUnknownError): Promise<void> {
    let st: { code: string };
    try {
      st = await this.status(cid);
    } catch {
      throw original;
    }
    if (st.code === 'PUBLISHED') return this.recover(unit);
    // FINISHED, or still IN_PROGRESS (a container published without its status read first, that
    // the platform refused as not ready): not published. Publishing again is safe either way,
    // since the platform refuses to publish a container twice (see publish()).
    if (st.code === 'FINISHED' || st.code === 'IN_PROGRESS') {
      throw new RetryableError(`${original.message}; the container is not published, so publishing will be tried again`, { after: this.api.pollIntervalMs, platformCode: original.platformCode });
    }
    throw original;
  }

  private async quotaError(err: RateLimitedError): Promise<RateLimitedError> {
    try {
      const limit = await this.readLimit();
      if (limit) return new RateLimitedError(err.message, { until: this.clock.now() + limit.durationS * 1000, platformCode: err.platformCode, cause: err });
    } catch {
      // Keep the default window.
    }
    return err;
  }

  /**
   * The container says PUBLISHED but exposes no media id: find the media among the
   * account's recent ones (docs/reference/platforms.md §1.7) by time and text; fall back to the container id.
   */
  async recover(unit: Unit): Promise<void> {
    const since = (unit.publishCalledAt ?? this.clock.now()) - 5 * 60_000;
    const taken = new Set(Object.values(this.units).map((u) => u.mediaId).filter(Boolean));
    let found: { id: string; permalink?: string } | undefined;
    try {
      const body = await this.run.call<{ data?: Record<string, unknown>[] }>(`${this.accountId}/${this.api.listEdge(unit.kind)}`, { params: { fields: this.api.listFields, limit: 25 } });
      found = (body.data ?? [])
        .filter((m) => Date.parse(String(m.timestamp).replace(/\+0000$/, 'Z')) >= since && !taken.has(String(m.id)))
        .filter((m) => unit.kind === 'story' || (m[this.api.textField] ?? null) === (unit.caption || null))
        .map((m) => ({ id: String(m.id), permalink: typeof m.permalink === 'string' ? m.permalink : undefined }))
        .pop();
    } catch (err) {
      this.run.ctx.log.warn('published media found by container status, but listing recent media failed', { error: (err as Error).message });
    }
    unit.mediaId = found?.id ?? String(unit.containerId);
    if (found?.permalink) unit.permalink = found.permalink;
    await this.save();
  }

  /** The permalink; never fails a post that is live (docs/reference/platforms.md §8.1.5). */
  async permalink(unit: Unit): Promise<string | null> {
    if (unit.permalink !== undefined) return unit.permalink;
    try {
      const body = await this.run.call<{ permalink?: string }>(String(unit.mediaId), { params: { fields: 'permalink' } });
      unit.permalink = body.permalink ?? null;
    } catch (err) {
      this.run.ctx.log.warn('permalink lookup failed; the post is published', { error: (err as Error).message });
      unit.permalink = null;
    }
    // Not written on its own: the post's end (or the next step's checkpoint) carries it, and
    // a run that stops before either only reads the link again. One durable commit fewer a post.
    return unit.permalink;
  }

  async outcome(first: Unit): Promise<PublishOutcome> {
    return { postId: String(first.mediaId), postUrl: await this.permalink(first) };
  }

  /** From the checkpoint alone: published (all units), not published (safe to resume), or unknown. */
  async reconcile(order: string[]): Promise<ReconcileResult> {
    const keys = order.length ? order : Object.keys(this.units);
    if (keys.length === 0 || this.fresh) return { state: 'not_published', reason: 'no container was created' };
    for (const key of keys) {
      const unit = this.units[key];
      if (!unit) return { state: 'not_published', reason: `${key} was not started` };
      if (unit.mediaId) continue;
      if (!unit.containerId) return { state: 'not_published', reason: `${key} has no container yet` };
      let st: { code: string };
      try {
        st = await this.status(unit.containerId);
      } catch (err) {
        return { state: 'unknown', reason: `${this.api.label}: could not read container ${unit.containerId}: ${(err as Error).message}` };
      }
      if (st.code !== 'PUBLISHED') {
        if (unit.publishCalledAt !== undefined && st.code === 'UNKNOWN') {
          // The publish call was made and the container cannot say whether it took: keep
          // looking (the publisher bounds the tries, then asks for review), never "not published".
          throw new RetryableError(`${this.api.label}: container ${unit.containerId} is ${st.code} after the publish call; will check again`, { after: this.api.pollIntervalMs, platformCode: 'container_status_unknown' });
        }
        // FINISHED, IN_PROGRESS, EXPIRED or ERROR: the publish did not take (the container's
        // status is the platform's dedupe signal, and a second publish of it would be refused).
        return { state: 'not_published', reason: `container ${unit.containerId} is ${st.code}` };
      }
      await this.recover(unit);
    }
    const first = this.units[keys[0] as string] as Unit;
    return { state: 'published', outcome: await this.outcome(first) };
  }
}

/**
 * The platform's refusal to publish a container that is already published. Meta documents
 * no code for it (docs/reference/platforms.md §1 lists subcode 2207006 as "media not found");
 * the answer seen in practice carries 2207006 with an "already been published" message, so
 * both must match. Any other 2207006 is a container to recreate (classify-error.ts).
 */
function alreadyPublished(err: unknown): boolean {
  const cause = err instanceof Error ? err.cause : undefined;
  return cause instanceof GraphApiError && cause.error.error_subcode === 2207006 && /already been published/i.test(cause.error.message);
}
