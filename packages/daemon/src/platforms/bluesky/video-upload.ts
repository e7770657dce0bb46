import type { Got } from 'got';
import type { MediaItem, PublishContext } from '../adapter';
import { PermanentError, RateLimitedError, RetryableError } from '../errors';
import { readMediaChunk } from '../shared/read-media-chunk';
import type { BlueskySession } from './bluesky-session';
import { checkpointOf, reusableBlob, saveBlob, type BlobRef } from './checkpoint';
import { VIDEO_HOST } from './pds-access';
import { BlueskyApiError, XrpcClient } from './xrpc-client';

export interface VideoUploadOptions {
  http?: Got | undefined;
  /** Per-request timeout (uploads get 10 minutes). */
  timeoutMs?: number | undefined;
  /** Give up waiting for the job after this long. */
  maxProcessingMs: number;
}

/** A service token for the video service (com.atproto.server.getServiceAuth), bound to one method, valid 30 minutes. */
async function serviceToken(s: BlueskySession, aud: string, lxm: string, now: number): Promise<string> {
  const res = await s.call('service auth', false, (c) => c.query<{ token: string }>('com.atproto.server.getServiceAuth', { params: { aud, lxm, exp: Math.floor(now / 1000) + 30 * 60 } }));
  return res.body.token;
}

interface UploadLimits {
  canUpload: boolean;
  remainingDailyVideos?: number;
  remainingDailyBytes?: number;
  message?: string;
  error?: string;
}

/**
 * A video through Bluesky's video service (docs.bsky.app/docs/tutorials/video): the
 * account's limits, the upload with a service token for the PDS, then the job until it
 * has the blob. The job id is checkpointed, so a resumed attempt waits for the same job; a
 * job lost before its id was saved is found again by the service's `already_exists`.
 */
export async function uploadVideo(ctx: PublishContext, s: BlueskySession, key: string, item: MediaItem, o: VideoUploadOptions): Promise<BlobRef> {
  const done = reusableBlob(ctx, key);
  if (done) return done;
  const video = new XrpcClient({ baseUrl: ctx.baseUrl(VIDEO_HOST), token: null, signal: ctx.signal, timeoutMs: o.timeoutMs, http: o.http });
  let jobId = checkpointOf(ctx).videoJobs?.[key];
  if (!jobId) {
    const limitsToken = await serviceToken(s, `did:web:${VIDEO_HOST}`, 'app.bsky.video.getUploadLimits', ctx.clock.now());
    const l = (await s.call('video upload limits', false, () => video.query<UploadLimits>('app.bsky.video.getUploadLimits', { token: limitsToken }))).body;
    if (!l.canUpload) throw new PermanentError(`Bluesky's video service refuses uploads for this account: ${l.message ?? l.error ?? 'canUpload is false'}`, { platformCode: l.error ?? 'cannot_upload' });
    if ((l.remainingDailyVideos !== undefined && l.remainingDailyVideos <= 0) || (l.remainingDailyBytes !== undefined && l.remainingDailyBytes < item.size)) {
      const tomorrow = new Date(ctx.clock.now());
      tomorrow.setUTCHours(24, 0, 0, 0);
      throw new RateLimitedError(`Bluesky's daily video limit is used up (${l.remainingDailyVideos ?? '?'} videos, ${l.remainingDailyBytes ?? '?'} bytes left today)`, { until: tomorrow.getTime(), platformCode: 'video_daily_limit' });
    }
    const uploadToken = await serviceToken(s, `did:web:${s.pdsHost}`, 'com.atproto.repo.uploadBlob', ctx.clock.now());
    const bytes = await readMediaChunk(item, 0, item.size);
    let job: { jobId?: string; jobStatus?: { jobId?: string } };
    try {
      const res = await s.call('video upload', false, () =>
        video.procedure<{ jobId?: string; jobStatus?: { jobId?: string } }>('app.bsky.video.uploadVideo', {
          params: { did: s.did, name: `${ctx.target.id}-${key}.mp4` },
          bytes: { data: bytes, contentType: 'video/mp4' },
          token: uploadToken,
          timeoutMs: 10 * 60_000,
        }),
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
    if (!jobId) throw new RetryableError("Bluesky's video service answered without a job id", { platformCode: 'video_no_job' });
    await ctx.checkpoint.save({ videoJobs: { ...(checkpointOf(ctx).videoJobs ?? {}), [key]: jobId } });
  }
  const deadline = ctx.clock.now() + o.maxProcessingMs;
  for (;;) {
    const res = await s.call('video status', false, () =>
      video.query<{ jobStatus: { state: string; blob?: BlobRef; error?: string; message?: string } }>('app.bsky.video.getJobStatus', { params: { jobId } }),
    );
    const st = res.body.jobStatus;
    if (st.blob) {
      await saveBlob(ctx, key, st.blob);
      return st.blob;
    }
    if (st.state === 'JOB_STATE_FAILED') {
      await ctx.checkpoint.save({ videoJobs: { ...(checkpointOf(ctx).videoJobs ?? {}), [key]: undefined } });
      throw new PermanentError(`Bluesky's video service could not process the video: ${st.message ?? st.error ?? 'JOB_STATE_FAILED'}`, { platformCode: st.error ?? 'JOB_STATE_FAILED' });
    }
    if (ctx.clock.now() >= deadline) throw new RetryableError(`Bluesky's video service is still processing after ${Math.round(o.maxProcessingMs / 60_000)} minutes (${st.state})`, { platformCode: st.state });
    await ctx.clock.sleep(1_500, ctx.signal);
  }
}
