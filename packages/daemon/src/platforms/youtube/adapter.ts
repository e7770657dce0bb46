import type { YoutubeOptions } from '@socialpub/core';
import type { Got } from 'got';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { RetryableError } from '../errors';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { callRenewingToken } from '../shared/call-renewing-token';
import { onlyVideo } from '../shared/only-video';
import { readMediaChunk } from '../shared/read-media-chunk';
import { GoogleApiError, GoogleClient, GoogleTransportError, type SessionState, type VideoResource } from './google-client';
import { mapGoogleError } from './map-google-error';
import { youtubeTokenRefresher } from './refresh-token';
import { withReplies } from '../shared/follow-ups/with-replies';
import { validateYoutube } from './validate';
import { videoResource } from './video-metadata';
import { safeThumbnailFetcher, type ThumbnailFetcher } from './fetch-thumbnail';
import { runPostSteps } from './post-steps';

const hasPostSteps = (ctx: PublishContext) => {
  const o = ctx.target.options as YoutubeOptions;
  return o.thumbnail_url !== undefined || o.playlist_id !== undefined;
};

export interface YoutubeAdapterDeps {
  /** Chunk size; rounded down to a multiple of 256 KiB. Default 8 MiB (as Postiz). */
  chunkBytes?: number;
  /** Probes/resumes after a broken chunk before giving up this attempt. Default 5. */
  maxResumes?: number;
  requestTimeoutMs?: number;
  /** Privacy status for connections whose meta sets none (DaemonConfig.platforms.youtubePrivacyStatus; else public). */
  defaultPrivacyStatus?: string;
  /** Fetches thumbnail_url images. Default: the daemon's SSRF-safe fetch, public addresses only. */
  fetchThumbnail?: ThumbnailFetcher;
  http?: Got;
}

const HOST = 'www.googleapis.com';
const QUANTUM = 256 * 1024;

interface YoutubeCheckpoint {
  /** The resumable session: the video exists only once its last byte arrives, so this is the dedupe handle. */
  sessionUri?: string | null;
  sessionStartedAt?: number;
  size?: number;
  videoId?: string;
  postUrl?: string;
}

export function createYoutubeAdapter(deps: YoutubeAdapterDeps = {}): PlatformAdapter {
  const chunkBytes = Math.max(QUANTUM, Math.floor((deps.chunkBytes ?? 8 * 1024 * 1024) / QUANTUM) * QUANTUM);
  const maxResumes = deps.maxResumes ?? 5;
  const defaultPrivacy = deps.defaultPrivacyStatus;
  const fetchThumbnail = deps.fetchThumbnail ?? safeThumbnailFetcher();

  async function clientFor(ctx: PublishContext): Promise<GoogleClient> {
    const token = await ensureAccessToken(ctx, youtubeTokenRefresher);
    return new GoogleClient({ baseUrl: ctx.baseUrl(HOST), token, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
  }

  /** One call; a 401 refreshes the token once and repeats it (a refused call changed nothing). */
  async function call<T>(ctx: PublishContext, client: GoogleClient, step: string, run: () => Promise<T>): Promise<T> {
    return callRenewingToken(ctx, run, {
      refused: (err) => err instanceof GoogleApiError && err.status === 401,
      renew: async () => client.setToken(await ensureAccessToken(ctx, youtubeTokenRefresher, { force: true })),
      mapError: (err) => mapGoogleError(err, { now: ctx.clock.now(), step }),
    });
  }

  function outcomeOf(ctx: PublishContext, video: VideoResource): PublishOutcome {
    const url = ctx.target.type === 'shorts' ? `https://www.youtube.com/shorts/${video.id}` : `https://www.youtube.com/watch?v=${video.id}`;
    return { postId: video.id, postUrl: url };
  }

  async function done(ctx: PublishContext, video: VideoResource): Promise<PublishOutcome> {
    const out = outcomeOf(ctx, video);
    // The video id first: from here on, no attempt uploads again, whatever the post steps do.
    await ctx.checkpoint.save({ videoId: out.postId, postUrl: out.postUrl, sessionUri: null });
    return out;
  }

  /** Thumbnail and playlist after the upload (post-steps.ts): never failing the published video. */
  async function postSteps(ctx: PublishContext, client: GoogleClient, videoId: string): Promise<void> {
    await runPostSteps(ctx, client, (step, run) => call(ctx, client, step, run), videoId, fetchThumbnail);
  }

  /** Asks the session how much it holds; transient failures back off and ask again. */
  async function probe(ctx: PublishContext, client: GoogleClient, sessionUri: string, size: number): Promise<SessionState> {
    let lastError: unknown;
    for (let attempt = 0; attempt < maxResumes; attempt++) {
      try {
        return await call(ctx, client, 'upload status', () => client.probe(sessionUri, size));
      } catch (err) {
        if (!(err instanceof RetryableError)) throw err;
        lastError = err;
        await ctx.clock.sleep(1000 * 2 ** attempt, ctx.signal);
      }
    }
    throw lastError;
  }

  /** Sends the bytes from `offset`, in 256 KiB multiples; a broken chunk is resumed from what the session reports. */
  async function upload(ctx: PublishContext, client: GoogleClient, sessionUri: string, item: MediaItem, offset: number): Promise<VideoResource | null> {
    let at = offset;
    let resumes = 0;
    for (;;) {
      const len = Math.min(chunkBytes, item.size - at);
      const bytes = await readMediaChunk(item, at, len);
      let state: SessionState;
      try {
        state = await call(ctx, client, 'chunk upload', () => client.putChunk(sessionUri, bytes, at, item.size, item.mimeType));
      } catch (err) {
        const transient = err instanceof RetryableError || (err as { cause?: unknown }).cause instanceof GoogleTransportError;
        if (!transient || ++resumes > maxResumes) throw err;
        await ctx.clock.sleep(1000 * 2 ** (resumes - 1), ctx.signal);
        state = await probe(ctx, client, sessionUri, item.size);
      }
      if (state.kind === 'complete') return state.video;
      if (state.kind === 'gone') return null;
      at = state.received;
      if (at >= item.size) {
        // Every byte is there but the session has not answered with the video yet: ask once more.
        const again = await probe(ctx, client, sessionUri, item.size);
        if (again.kind === 'complete') return again.video;
        if (again.kind === 'gone') return null;
        throw new RetryableError('YouTube holds every byte but has not created the video yet', { platformCode: 'upload_incomplete' });
      }
    }
  }

  async function startSession(ctx: PublishContext, client: GoogleClient, item: MediaItem): Promise<string> {
    const meta: Record<string, unknown> = { ...(defaultPrivacy ? { privacy_status: defaultPrivacy } : {}), ...ctx.credentials.meta };
    const contentType = item.mimeType.startsWith('video/') ? item.mimeType : 'application/octet-stream';
    const options = ctx.target.options as YoutubeOptions;
    const notify = options.notify_subscribers ?? meta.notify_subscribers !== false;
    const uri = await call(ctx, client, 'upload start', () => client.startSession(videoResource(ctx.target.caption, meta, options), item.size, contentType, notify));
    // Saved before any byte: a second session for the same file would make a second video.
    await ctx.checkpoint.save({ sessionUri: uri, sessionStartedAt: ctx.clock.now(), size: item.size });
    return uri;
  }

  /** The video is there: checkpoint it, then the post steps (a failure there, even an abort, leaves the video published). */
  async function finishVideo(ctx: PublishContext, client: GoogleClient, video: VideoResource): Promise<PublishOutcome> {
    const out = await done(ctx, video);
    if (hasPostSteps(ctx)) await postSteps(ctx, client, out.postId).catch(() => undefined);
    return out;
  }

  const adapter: PlatformAdapter = {
    platform: 'youtube',
    validate: validateYoutube,

    async publish(ctx) {
      const cp = ctx.checkpoint.data as YoutubeCheckpoint;
      if (cp.videoId) {
        const out = { postId: cp.videoId, postUrl: cp.postUrl ?? null };
        if (hasPostSteps(ctx)) await postSteps(ctx, await clientFor(ctx), cp.videoId).catch(() => undefined);
        return out;
      }
      const item = onlyVideo(ctx.media, 'A YouTube upload');
      const client = await clientFor(ctx);

      let sessionUri = cp.sessionUri ?? null;
      let offset = 0;
      if (sessionUri) {
        const state = await probe(ctx, client, sessionUri, item.size);
        if (state.kind === 'complete') return finishVideo(ctx, client, state.video);
        if (state.kind === 'gone') {
          // The session expired before its last byte: no video exists, so a new session is safe.
          await ctx.checkpoint.save({ sessionUri: null });
          sessionUri = null;
        } else offset = state.received;
      }
      if (!sessionUri) sessionUri = await startSession(ctx, client, item);
      const video = await upload(ctx, client, sessionUri, item, offset);
      if (!video) {
        await ctx.checkpoint.save({ sessionUri: null });
        throw new RetryableError('The YouTube upload session expired before the upload finished; the next attempt starts a new one', { platformCode: 'session_expired' });
      }
      return finishVideo(ctx, client, video);
    },

    async reconcile(ctx): Promise<ReconcileResult> {
      const cp = ctx.checkpoint.data as YoutubeCheckpoint;
      if (cp.videoId) {
        // Interrupted after the upload: the video stands; the post steps not yet done are tried now.
        if (hasPostSteps(ctx)) await clientFor(ctx).then((client) => postSteps(ctx, client, cp.videoId as string)).catch(() => undefined);
        return { state: 'published', outcome: { postId: cp.videoId, postUrl: cp.postUrl ?? null } };
      }
      if (!cp.sessionUri || !cp.size) return { state: 'not_published', reason: 'No upload session was started' };
      try {
        const client = await clientFor(ctx);
        const state = await call(ctx, client, 'upload status', () => client.probe(cp.sessionUri as string, cp.size as number));
        if (state.kind === 'complete') return { state: 'published', outcome: await finishVideo(ctx, client, state.video) };
        if (state.kind === 'gone') return { state: 'not_published', reason: 'The upload session expired before its last byte; no video was created' };
        return { state: 'not_published', reason: `The upload stopped at ${state.received} of ${cp.size} bytes; publishing again resumes it` };
      } catch (err) {
        return { state: 'unknown', reason: `Could not ask YouTube about the upload session: ${(err as Error).message}` };
      }
    },
  };
  // The first comment: commentThreads.insert on the new video (scope youtube.force-ssl; docs/reference/platforms.md §12.6.5).
  return withReplies(adapter, {
    async comment(ctx, post, text) {
      const client = await clientFor(ctx);
      // The connection's account is its channel (UC…); a sandbox connection's is not, and the channel then follows from the token.
      const account = ctx.credentials.accountId;
      const channelId = account && /^UC[A-Za-z0-9_-]{22}$/.test(account) ? account : null;
      const res = await call(ctx, client, 'first comment', () => client.insertCommentThread(channelId, post.postId, text));
      return { id: res.id, url: `https://www.youtube.com/watch?v=${post.postId}&lc=${res.id}` };
    },
  });
}
