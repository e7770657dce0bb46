import type { BlueskyOptions } from '@socialpub/core';
import type { Got } from 'got';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import type { AddressGuard } from '../../media/address-guard';
import { readMediaChunk } from '../shared/read-media-chunk';
import { withFollowUps } from '../shared/follow-ups/with-follow-ups';
import type { FollowUpPoster, PostedRef } from '../shared/follow-ups/follow-up-poster';
import { openSession, parsePostUri, POST_COLLECTION, postUrl, type BlueskySession, type StrongRef } from './bluesky-session';
import { buildFacets, firstLink } from './facets';
import { safeLinkCardFetcher, type LinkCardFetcher } from './link-card';
import { defaultPdsGuard, VIDEO_HOST } from './pds-access';
import { blueskySessionRefresher } from './session';
import { recordKeyFor } from './tid';
import { BLUESKY_LIMITS, validateBluesky } from './validate';
import { BlueskyApiError, XrpcClient } from './xrpc-client';

export interface BlueskyAdapterDeps {
  /** Checks the PDS's and link cards' addresses (default: public addresses only). */
  guard?: AddressGuard;
  /** Fetches link cards (default: through the SSRF-safe fetcher); null turns cards off. */
  linkCards?: LinkCardFetcher | null;
  /** Per-request timeout. Default 60 s (uploads get 10 minutes). */
  requestTimeoutMs?: number;
  /** Give up waiting for the video service after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  http?: Got;
}

/** A blob reference as the PDS answers it (`{$type: 'blob', ref: {$link}, mimeType, size}`). */
type BlobRef = Record<string, unknown>;

interface BlueskyCheckpoint {
  did?: string;
  /** Uploaded blobs by media key ("0", "p2.0", "card"), with when they were uploaded (unreferenced blobs are collected by the PDS). */
  blobs?: Record<string, { blob: BlobRef; at: number }>;
  /** Video-service jobs by media key. */
  videoJobs?: Record<string, string>;
  /** Record keys whose createRecord went out (a later attempt asks getRecord there first). */
  requested?: Record<string, number>;
  /** The post (part 1). */
  post?: StrongRef;
  /** Every record this target made, in order (the post, thread parts, the comment): uri -> cid. */
  made?: Array<StrongRef>;
}

/** A blob the PDS still has: referenced within this long after upload (PDSes collect orphans after about an hour). */
const BLOB_REUSE_MS = 30 * 60_000;

export function createBlueskyAdapter(deps: BlueskyAdapterDeps = {}): PlatformAdapter {
  const guard = deps.guard ?? defaultPdsGuard;
  const refresher = blueskySessionRefresher(guard);
  const linkCards = deps.linkCards === undefined ? safeLinkCardFetcher(guard) : deps.linkCards;
  const maxProcessingMs = deps.maxProcessingMs ?? 30 * 60_000;
  const cpOf = (ctx: PublishContext) => ctx.checkpoint.data as BlueskyCheckpoint;

  const sessionFor = async (ctx: PublishContext): Promise<BlueskySession> => {
    const s = await openSession(ctx, { guard, refresher, http: deps.http, timeoutMs: deps.requestTimeoutMs }, { did: cpOf(ctx).did });
    if (!cpOf(ctx).did && typeof ctx.credentials.meta.did !== 'string') await ctx.checkpoint.save({ did: s.did });
    return s;
  };

  const outcome = (s: BlueskySession, ref: StrongRef): PublishOutcome => ({ postId: ref.uri, postUrl: postUrl(s.handle ?? s.did, parsePostUri(ref.uri)?.rkey ?? '') });

  async function saveBlob(ctx: PublishContext, key: string, blob: BlobRef): Promise<void> {
    await ctx.checkpoint.save({ blobs: { ...(cpOf(ctx).blobs ?? {}), [key]: { blob, at: ctx.clock.now() } } });
  }

  async function uploadBlob(ctx: PublishContext, s: BlueskySession, key: string, bytes: Buffer, mimeType: string): Promise<BlobRef> {
    const prev = cpOf(ctx).blobs?.[key];
    if (prev && ctx.clock.now() - prev.at < BLOB_REUSE_MS) return prev.blob;
    const res = await s.call('image upload', false, (c) => c.procedure<{ blob: BlobRef }>('com.atproto.repo.uploadBlob', { bytes: { data: bytes, contentType: mimeType }, timeoutMs: 10 * 60_000 }));
    await saveBlob(ctx, key, res.body.blob);
    return res.body.blob;
  }

  /** A service token for the video service (com.atproto.server.getServiceAuth), bound to one method. */
  async function serviceToken(s: BlueskySession, aud: string, lxm: string, now: number): Promise<string> {
    const res = await s.call('service auth', false, (c) => c.query<{ token: string }>('com.atproto.server.getServiceAuth', { params: { aud, lxm, exp: Math.floor(now / 1000) + 30 * 60 } }));
    return res.body.token;
  }

  /** The video service (docs.bsky.app/docs/tutorials/video): limits, upload, then the job until it has the blob. */
  async function uploadVideo(ctx: PublishContext, s: BlueskySession, key: string, item: MediaItem): Promise<BlobRef> {
    const prev = cpOf(ctx).blobs?.[key];
    if (prev && ctx.clock.now() - prev.at < BLOB_REUSE_MS) return prev.blob;
    const video = new XrpcClient({ baseUrl: ctx.baseUrl(VIDEO_HOST), token: null, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, http: deps.http });
    let jobId = cpOf(ctx).videoJobs?.[key];
    if (!jobId) {
      const limitsToken = await serviceToken(s, `did:web:${VIDEO_HOST}`, 'app.bsky.video.getUploadLimits', ctx.clock.now());
      const limits = await s.call('video upload limits', false, () =>
        video.query<{ canUpload: boolean; remainingDailyVideos?: number; remainingDailyBytes?: number; message?: string; error?: string }>('app.bsky.video.getUploadLimits', { token: limitsToken }),
      );
      const l = limits.body;
      if (!l.canUpload) throw new PermanentError(`Bluesky's video service refuses uploads for this account: ${l.message ?? l.error ?? 'canUpload is false'}`, { platformCode: l.error ?? 'cannot_upload' });
      if ((l.remainingDailyVideos !== undefined && l.remainingDailyVideos <= 0) || (l.remainingDailyBytes !== undefined && l.remainingDailyBytes < item.size)) {
        const tomorrow = new Date(ctx.clock.now());
        tomorrow.setUTCHours(24, 0, 0, 0);
        throw new RateLimitedError(`Bluesky's daily video limit is used up (${l.remainingDailyVideos ?? '?'} videos, ${l.remainingDailyBytes ?? '?'} bytes left today)`, { until: tomorrow.getTime(), platformCode: 'video_daily_limit' });
      }
      const uploadToken = await serviceToken(s, `did:web:${s.pdsHost}`, 'com.atproto.repo.uploadBlob', ctx.clock.now());
      const bytes = await readMediaChunk(item, 0, item.size);
      const name = `${ctx.target.id}-${key}.mp4`;
      let job: { jobId?: string; jobStatus?: { jobId?: string } };
      try {
        const res = await s.call('video upload', false, () =>
          video.procedure<{ jobId?: string; jobStatus?: { jobId?: string } }>('app.bsky.video.uploadVideo', { params: { did: s.did, name }, bytes: { data: bytes, contentType: 'video/mp4' }, token: uploadToken, timeoutMs: 10 * 60_000 }),
        );
        job = res.body;
      } catch (err) {
        // The same video was uploaded before: the service answers already_exists with that job's id.
        const cause = (err as { cause?: unknown }).cause;
        const known = cause instanceof BlueskyApiError && cause.error === 'already_exists' ? (cause.body as { jobId?: unknown } | null)?.jobId : undefined;
        if (typeof known !== 'string') throw err;
        job = { jobId: known };
      }
      // The service answers the JobStatus itself; the lexicon wraps it in {jobStatus}: take either.
      jobId = job.jobId ?? job.jobStatus?.jobId;
      if (!jobId) throw new RetryableError('Bluesky\'s video service answered without a job id', { platformCode: 'video_no_job' });
      await ctx.checkpoint.save({ videoJobs: { ...(cpOf(ctx).videoJobs ?? {}), [key]: jobId } });
    }
    const deadline = ctx.clock.now() + maxProcessingMs;
    for (;;) {
      const res = await s.call('video status', false, () =>
        video.query<{ jobStatus: { state: string; blob?: BlobRef; error?: string; message?: string; progress?: number } }>('app.bsky.video.getJobStatus', { params: { jobId } }),
      );
      const st = res.body.jobStatus;
      if (st.blob) {
        await saveBlob(ctx, key, st.blob);
        return st.blob;
      }
      if (st.state === 'JOB_STATE_FAILED') {
        await ctx.checkpoint.save({ videoJobs: { ...(cpOf(ctx).videoJobs ?? {}), [key]: undefined } });
        throw new PermanentError(`Bluesky's video service could not process the video: ${st.message ?? st.error ?? 'JOB_STATE_FAILED'}`, { platformCode: st.error ?? 'JOB_STATE_FAILED' });
      }
      if (ctx.clock.now() >= deadline) throw new RetryableError(`Bluesky's video service is still processing after ${Math.round(maxProcessingMs / 60_000)} minutes (${st.state})`, { platformCode: st.state });
      await ctx.clock.sleep(1_500, ctx.signal);
    }
  }

  /** The embed of a post or part: images with alt texts, a video, or (text alone) a card for the first link. */
  async function embedFor(ctx: PublishContext, s: BlueskySession, text: string, items: MediaItem[], prefix: string, alts: string[]): Promise<Record<string, unknown> | undefined> {
    const video = items.find((m) => m.kind === 'video');
    if (video) {
      const blob = await uploadVideo(ctx, s, `${prefix}0`, video);
      return { $type: 'app.bsky.embed.video', video: blob, ...(alts[0] ? { alt: alts[0] } : {}) };
    }
    if (items.length > 0) {
      const images = [];
      // Sizes unknown when the request was accepted (a URL not prepared then) are checked here, before any upload.
      for (const [i, item] of items.entries()) {
        if (item.size > BLUESKY_LIMITS.imageBytes) {
          throw new PermanentError(`media ${i + 1}: Bluesky takes images up to ${BLUESKY_LIMITS.imageBytes.toLocaleString('en-US')} bytes; this one is ${item.size.toLocaleString('en-US')} bytes`, { platformCode: 'BlobTooLarge' });
        }
      }
      for (const [i, item] of items.entries()) {
        const bytes = await readMediaChunk(item, 0, item.size);
        images.push({ image: await uploadBlob(ctx, s, `${prefix}${i}`, bytes, item.mimeType), alt: alts[i] ?? '' });
      }
      return { $type: 'app.bsky.embed.images', images };
    }
    const link = firstLink(text);
    if (!link || !linkCards || (ctx.target.options as BlueskyOptions).link_card === false) return undefined;
    try {
      const card = await linkCards(link, ctx.signal);
      const external: Record<string, unknown> = { uri: card.uri, title: card.title, description: card.description };
      if (card.thumb) external.thumb = await uploadBlob(ctx, s, `${prefix}card`, card.thumb.bytes, card.thumb.mimeType);
      return { $type: 'app.bsky.embed.external', external };
    } catch (err) {
      if (err instanceof PublishError && !(err instanceof PermanentError)) throw err;
      ctx.log.warn('bluesky link card left out', { url: link, error: (err as Error).message });
      return undefined;
    }
  }

  /** The app.bsky.feed.post record: text, facets with mentions resolved, langs, self-labels, embed, reply. */
  async function recordFor(ctx: PublishContext, s: BlueskySession, text: string, items: MediaItem[], prefix: string, reply?: { root: StrongRef; parent: StrongRef }): Promise<Record<string, unknown>> {
    const o = ctx.target.options as BlueskyOptions;
    const nfc = text.normalize('NFC');
    const facets = await buildFacets(nfc, async (handle) => {
      try {
        const res = await s.call('mention lookup', false, (c) => c.query<{ did: string }>('com.atproto.identity.resolveHandle', { params: { handle } }));
        return res.body.did ?? null;
      } catch (err) {
        if (err instanceof PermanentError) return null; // an unknown handle stays plain text
        throw err;
      }
    });
    const record: Record<string, unknown> = { $type: POST_COLLECTION, text: nfc, createdAt: new Date(ctx.clock.now()).toISOString() };
    if (facets.length > 0) record.facets = facets;
    if (o.langs?.length) record.langs = o.langs;
    if (o.labels?.length) record.labels = { $type: 'com.atproto.label.defs#selfLabels', values: o.labels.map((val) => ({ val })) };
    const embed = await embedFor(ctx, s, nfc, items, prefix, prefix === '' ? (o.alt_texts ?? []) : []);
    if (embed) record.embed = embed;
    if (reply) record.reply = reply;
    return record;
  }

  /**
   * Writes the record at its own key, exactly once: a key an earlier attempt sent is asked
   * about first (getRecord); a createRecord the PDS refuses or leaves unanswered is looked
   * up at the key, and a record found there is the one this target made. Nothing found
   * after an unanswered request: the next attempt writes the same key, which the PDS
   * refuses if the first request landed after all.
   */
  async function createAt(ctx: PublishContext, s: BlueskySession, rkey: string, build: () => Promise<Record<string, unknown>>, step: string, sending?: () => Promise<void>): Promise<StrongRef> {
    if (cpOf(ctx).requested?.[rkey]) {
      const found = await s.getPost(rkey, `${step} lookup`);
      if (found) return found;
    }
    const record = await build();
    await sending?.();
    await ctx.checkpoint.save({ requested: { ...(cpOf(ctx).requested ?? {}), [rkey]: ctx.clock.now() } });
    try {
      const res = await s.call(step, true, (c) => c.procedure<{ uri: string; cid: string }>('com.atproto.repo.createRecord', { json: { repo: s.did, collection: POST_COLLECTION, rkey, record } }));
      return { uri: res.body.uri, cid: res.body.cid };
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError || err instanceof PermanentError)) throw err;
      let found: StrongRef | null;
      try {
        found = await s.getPost(rkey, `${step} lookup`);
      } catch {
        throw err;
      }
      if (found) return found;
      if (err instanceof OutcomeUnknownError) {
        throw new RetryableError(`${err.message}; the PDS has no record at ${rkey}, so the next attempt writes that key again (a late first write makes it refuse the second)`, { platformCode: err.platformCode, cause: err });
      }
      throw err;
    }
  }

  async function remember(ctx: PublishContext, ref: StrongRef, extra: Record<string, unknown> = {}): Promise<void> {
    const made = cpOf(ctx).made ?? [];
    if (!made.some((m) => m.uri === ref.uri)) await ctx.checkpoint.save({ made: [...made, ref], ...extra });
    else if (Object.keys(extra).length) await ctx.checkpoint.save(extra);
  }

  /** A strong ref for a record this target made (its cid from the checkpoint, else from getRecord). */
  async function refOf(ctx: PublishContext, s: BlueskySession, uri: string): Promise<StrongRef> {
    const known = cpOf(ctx).made?.find((m) => m.uri === uri);
    if (known?.cid) return known;
    const rkey = parsePostUri(uri)?.rkey;
    const found = rkey ? await s.getPost(rkey, 'parent lookup') : null;
    if (!found) throw new PermanentError(`the post ${uri} this part replies to no longer exists`, { platformCode: 'RecordNotFound' });
    return found;
  }

  async function postReply(ctx: PublishContext, parentUri: string, key: number | 'comment', text: string, items: MediaItem[], step: string, sending?: () => Promise<void>): Promise<PostedRef> {
    const s = await sessionFor(ctx);
    const root = cpOf(ctx).post ?? (await refOf(ctx, s, parentUri));
    const parent = await refOf(ctx, s, parentUri);
    const ref = await createAt(ctx, s, recordKeyFor(ctx.target.id, key), () => recordFor(ctx, s, text, items, `p${key}.`, { root, parent }), step, sending);
    await remember(ctx, ref);
    const out = outcome(s, ref);
    return { id: out.postId, url: out.postUrl };
  }

  const followUps: FollowUpPoster = {
    // A part's (and the comment's) key is fixed: one whose answer was lost is looked up, never written twice.
    replyResumable: true,
    commentResumable: true,
    reply: (ctx, parentId, part) => postReply(ctx, parentId, part.part, part.caption, part.media, `thread part ${part.part}`, part.sending),
    comment: (ctx, post, text) => postReply(ctx, post.postId, 'comment', text, [], 'first comment'),
  };

  return withFollowUps(
    {
      platform: 'bluesky',
      validate: validateBluesky,

      async publish(ctx) {
        const s = await sessionFor(ctx);
        const done = cpOf(ctx).post;
        if (done) return outcome(s, done);
        const ref = await createAt(ctx, s, recordKeyFor(ctx.target.id, 1), () => recordFor(ctx, s, ctx.target.caption, ctx.media, ''), 'post');
        await remember(ctx, ref, { post: ref });
        return outcome(s, ref);
      },

      async reconcile(ctx): Promise<ReconcileResult> {
        try {
          const s = await sessionFor(ctx);
          const done = cpOf(ctx).post;
          if (done) return { state: 'published', outcome: outcome(s, done) };
          const found = await s.getPost(recordKeyFor(ctx.target.id, 1), 'post lookup');
          if (!found) return { state: 'not_published', reason: 'The PDS has no record at the post\'s record key: it was not made' };
          await remember(ctx, found, { post: found });
          return { state: 'published', outcome: outcome(s, found) };
        } catch (err) {
          return { state: 'unknown', reason: `Could not ask the Bluesky PDS whether the post exists: ${(err as Error).message}` };
        }
      },
    },
    followUps,
  );
}

/** The records a published target made, the post last (for take-downs): from the checkpoint's `made`. */
export function madeRecords(checkpoint: Record<string, unknown>, postId: string): string[] {
  const made = ((checkpoint as BlueskyCheckpoint).made ?? []).map((m) => m.uri).filter((u) => u !== postId);
  return [...made.reverse(), postId];
}
