import type { MediaItem, PublishContext } from '../adapter';
import { PermanentError, RetryableError } from '../errors';
import { readMediaChunk } from '../shared/read-media-chunk';
import type { PinterestSession } from './pinterest-session';
import { PINTEREST_API_HOST } from './refresh-token';

/** What the checkpoint keeps of the video upload, so a resumed attempt goes on instead of registering again. */
export interface VideoCheckpoint {
  mediaId: string;
  /** registered: upload URL handed out; uploaded: bytes sent; ready: Pinterest says `succeeded`. */
  state: 'registered' | 'uploaded' | 'ready';
  uploadUrl?: string;
  uploadParameters?: Record<string, string>;
}

export interface VideoDeps {
  /** Give up waiting for Pinterest's processing after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  /** Between status checks. Default 2 s. */
  pollMs?: number;
}

/**
 * An upload URL is only used when it is Pinterest's (https on pinterest.com, or the S3
 * bucket Pinterest's examples name) or, for a sandbox connection, the simulator's own
 * origin: the daemon never sends a user's file to an address an answer merely named.
 */
export function checkUploadUrl(ctx: PublishContext, url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PermanentError(`Pinterest handed out an upload URL that is not a URL: ${url.slice(0, 100)}`, { platformCode: 'bad-upload-url' });
  }
  const sandbox = ctx.credentials.mode === 'sandbox' && u.origin === new URL(ctx.baseUrl(PINTEREST_API_HOST)).origin;
  const pinterest = u.protocol === 'https:' && (u.hostname.endsWith('.pinterest.com') || u.hostname === 'pinterest-media-upload.s3-accelerate.amazonaws.com' || /^pinterest-[a-z0-9-]+\.s3[a-z0-9.-]*\.amazonaws\.com$/.test(u.hostname));
  if (!sandbox && !pinterest) throw new PermanentError(`Pinterest handed out an upload URL outside Pinterest (${u.host}); not uploading there`, { platformCode: 'bad-upload-url' });
}

const saved = (ctx: PublishContext) => ctx.checkpoint.data.video as VideoCheckpoint | undefined;
const save = (ctx: PublishContext, v: VideoCheckpoint) => ctx.checkpoint.save({ video: v });

/**
 * A video pin's media: `POST /v5/media` registers it (checkpointed), the file goes to the
 * upload URL as a multipart POST with the upload_parameters as fields (checkpointed), then
 * `GET /v5/media/{id}` is polled until `succeeded`. Returns the media id.
 */
export async function uploadVideo(ctx: PublishContext, s: PinterestSession, item: MediaItem, deps: VideoDeps = {}): Promise<string> {
  let v = saved(ctx);
  if (v?.state === 'ready') return v.mediaId;
  if (!v) {
    const res = await s.call('video registration', false, (c) =>
      c.request<{ media_id?: string; upload_url?: string; upload_parameters?: Record<string, string> }>('/v5/media', { method: 'POST', json: { media_type: 'video' } }),
    );
    if (!res.body.media_id || !res.body.upload_url) throw new RetryableError('Pinterest registered the video without a media_id or upload_url', { platformCode: 'bad-answer' });
    checkUploadUrl(ctx, res.body.upload_url);
    v = { mediaId: res.body.media_id, state: 'registered', uploadUrl: res.body.upload_url, uploadParameters: res.body.upload_parameters ?? {} };
    await save(ctx, v);
  }
  if (v.state === 'registered') {
    checkUploadUrl(ctx, v.uploadUrl!);
    const bytes = await readMediaChunk(item, 0, item.size);
    // Sending the same file to the same key again only replaces it: safe to repeat after a crash.
    await s.call('video upload', false, (c) => c.uploadForm(v!.uploadUrl!, v!.uploadParameters ?? {}, { bytes, name: 'video.mp4', type: item.mimeType }));
    v = { mediaId: v.mediaId, state: 'uploaded' };
    await save(ctx, v);
  }
  await waitSucceeded(ctx, s, v.mediaId, deps);
  await save(ctx, { mediaId: v.mediaId, state: 'ready' });
  return v.mediaId;
}

async function waitSucceeded(ctx: PublishContext, s: PinterestSession, mediaId: string, deps: VideoDeps): Promise<void> {
  const pollMs = deps.pollMs ?? 2_000;
  const deadline = ctx.clock.now() + (deps.maxProcessingMs ?? 30 * 60_000);
  for (;;) {
    const res = await s.call('video status', false, (c) => c.request<{ status?: string }>(`/v5/media/${encodeURIComponent(mediaId)}`, { method: 'GET' }));
    const status = res.body.status;
    if (status === 'succeeded') return;
    if (status === 'failed') throw new PermanentError(`Pinterest could not process the video (media ${mediaId}: failed)`, { platformCode: 'media_failed' });
    if (ctx.clock.now() >= deadline) throw new RetryableError(`Pinterest still processes video ${mediaId} (${status ?? 'no status'})`, { platformCode: 'media_processing' });
    await ctx.clock.sleep(pollMs, ctx.signal);
  }
}
