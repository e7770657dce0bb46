import type { TiktokOptions } from '@socialpub/core';
import type { Got } from 'got';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError, PublishError, RetryableError } from '../errors';
import { onlyVideo } from '../shared/only-video';
import { readMediaChunk } from '../shared/read-media-chunk';
import { checkCreatorAccount, queryCreatorInfo, type Privacy } from './creator-info';
import { chunkRange, planChunks, TIKTOK_CHUNK_RULES, type ChunkPlan, type ChunkRules } from './chunk-plan';
import { failReasonError, isPublishFailure, mapTikTokError } from './map-tiktok-error';
import { tiktokApi, tiktokClient } from './tiktok-api';
import { TikTokTransportError, type TikTokClient } from './tiktok-client';
import { validateTiktok } from './validate';

export interface TiktokAdapterDeps {
  /** Chunk rules (tests scale them down; the simulator must agree). Default TikTok's. */
  chunkRules?: ChunkRules;
  /** Chunk size for files above `chunkRules.max`. Default 10 MiB. */
  chunkBytes?: number;
  /** Status polling interval. Default 5 s (status/fetch allows 30 per minute). */
  pollMs?: number;
  /** Give up waiting for PUBLISH_COMPLETE after this long (the next attempt resumes polling). Default 30 minutes. */
  maxWaitMs?: number;
  /** After PUBLISH_COMPLETE, wait this long for a public post id (moderation). Default 2 minutes. */
  postIdWaitMs?: number;
  requestTimeoutMs?: number;
  /**
   * Defaults for connections whose meta sets none: the privacy level and whether the app
   * passed TikTok's audit (DaemonConfig.platforms). Unset: unaudited, so SELF_ONLY.
   */
  defaults?: { privacy_level?: string; audited?: boolean };
  http?: Got;
}

const UPLOAD_URL_TTL_MS = 3600_000;


interface StatusData {
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED' | string;
  fail_reason?: string;
  publicaly_available_post_id?: Array<number | string>;
  uploaded_bytes?: number;
  downloaded_bytes?: number;
}

interface TiktokCheckpoint {
  publishId?: string | null;
  source?: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  uploadUrl?: string | null;
  uploadUrlExpiresAt?: number;
  plan?: ChunkPlan;
  uploadedAll?: boolean;
  privacy?: Privacy;
  username?: string | null;
  postId?: string;
  postUrl?: string | null;
}

/**
 * The privacy level to post with: the job's platform_options.tiktok.privacy_level when set
 * (it must be one of the creator's options now: never silently changed), else the
 * connection's, else by audit (docs/reference/platforms.md §5.4: unaudited apps may only post SELF_ONLY).
 */
export function choosePrivacy(meta: Record<string, unknown>, options: readonly Privacy[], requested?: Privacy): Privacy {
  if (requested !== undefined) {
    if (options.includes(requested)) return requested;
    throw new PermanentError(
      `platform_options.tiktok.privacy_level: ${requested} is not one of this creator's privacy levels now (${options.join(', ') || 'none offered'})`,
      { platformCode: 'privacy_level_option_mismatch' },
    );
  }
  const wanted = typeof meta.privacy_level === 'string' ? (meta.privacy_level as Privacy) : meta.audited === true ? 'PUBLIC_TO_EVERYONE' : 'SELF_ONLY';
  if (options.includes(wanted)) return wanted;
  if (meta.audited === true && wanted === 'PUBLIC_TO_EVERYONE' && options.includes('FOLLOWER_OF_CREATOR')) return 'FOLLOWER_OF_CREATOR';
  throw new PermanentError(`The TikTok privacy level ${wanted} is not one this creator can use now (${options.join(', ') || 'none offered'})`, { platformCode: 'privacy_level_option_mismatch' });
}

export function createTiktokAdapter(deps: TiktokAdapterDeps = {}): PlatformAdapter {
  const rules = deps.chunkRules ?? TIKTOK_CHUNK_RULES;
  const pollMs = deps.pollMs ?? 5_000;
  const maxWaitMs = deps.maxWaitMs ?? 30 * 60_000;
  const postIdWaitMs = deps.postIdWaitMs ?? 2 * 60_000;
  const defaults: Record<string, unknown> = deps.defaults ?? {};
  const creatorDeps = { ...(deps.http ? { http: deps.http } : {}), requestTimeoutMs: deps.requestTimeoutMs };

  const clientFor = (ctx: PublishContext) => tiktokClient(ctx, deps);
  const api = tiktokApi;

  const fetchStatus = (ctx: PublishContext, client: TikTokClient, publishId: string) =>
    api<StatusData>(ctx, client, 'status fetch', '/v2/post/publish/status/fetch/', { publish_id: publishId });

  function outcome(cp: TiktokCheckpoint, publishId: string, status: StatusData, kind: 'video' | 'photo'): PublishOutcome {
    const id = status.publicaly_available_post_id?.[0];
    const user = cp.username;
    if (id !== undefined && id !== null) return { postId: String(id), postUrl: user ? `https://www.tiktok.com/@${user}/${kind}/${String(id)}` : null };
    // Private (SELF_ONLY) and inbox posts never get a public id: the publish id identifies them.
    return { postId: publishId, postUrl: user ? `https://www.tiktok.com/@${user}` : null };
  }

  /** Polls status/fetch until the publish settles; resolves with the final status. */
  async function waitForPublish(ctx: PublishContext, client: TikTokClient, publishId: string, first?: StatusData): Promise<StatusData> {
    const cp = ctx.checkpoint.data as TiktokCheckpoint;
    const deadline = ctx.clock.now() + maxWaitMs;
    let status = first ?? (await fetchStatus(ctx, client, publishId));
    for (;;) {
      if (status.status === 'FAILED') throw failReasonError(status.fail_reason);
      if (status.status === 'SEND_TO_USER_INBOX') return status;
      if (status.status === 'PUBLISH_COMPLETE') {
        const hasId = (status.publicaly_available_post_id?.length ?? 0) > 0;
        if (hasId || cp.privacy === 'SELF_ONLY') return status;
        // Public posts get their id after moderation; wait a little, then settle for the publish id.
        const idDeadline = ctx.clock.now() + postIdWaitMs;
        while (ctx.clock.now() < idDeadline) {
          await ctx.clock.sleep(pollMs, ctx.signal);
          status = await fetchStatus(ctx, client, publishId);
          if ((status.publicaly_available_post_id?.length ?? 0) > 0) break;
        }
        return status;
      }
      if (ctx.clock.now() >= deadline) throw new RetryableError(`TikTok is still processing the video after ${Math.round(maxWaitMs / 60_000)} minutes`, { platformCode: status.status });
      await ctx.clock.sleep(pollMs, ctx.signal);
      status = await fetchStatus(ctx, client, publishId);
    }
  }

  /** PUTs chunks from `fromChunk`, following the upload's own progress on 416 and retrying broken chunks. */
  async function upload(ctx: PublishContext, client: TikTokClient, item: MediaItem, uploadUrl: string, plan: ChunkPlan, fromChunk: number): Promise<void> {
    let index = fromChunk;
    let failures = 0;
    while (index < plan.totalChunkCount) {
      const { first, last } = chunkRange(plan, index);
      const bytes = await readMediaChunk(item, first, last - first + 1);
      let answer;
      try {
        answer = await client.putChunk(uploadUrl, bytes, first, last, plan.videoSize, item.mimeType);
      } catch (err) {
        if (!(err instanceof TikTokTransportError) || ++failures > 3) throw mapTikTokError(err, { now: ctx.clock.now(), step: 'chunk upload' });
        // The chunk may or may not have landed: the next PUT's answer (206, or 416 with progress) tells.
        await ctx.clock.sleep(1000 * 2 ** (failures - 1), ctx.signal);
        continue;
      }
      if (answer.status === 201 || answer.status === 206 || answer.status === 200) {
        index += 1;
        failures = 0;
        continue;
      }
      if (answer.status === 416) {
        // The upload holds a different amount than this chunk assumed: continue from what it holds.
        if (++failures > 3 || answer.uploaded === null) throw new RetryableError(`TikTok refused chunk ${index + 1} (416) without a usable Content-Range`, { platformCode: '416' });
        if (answer.uploaded >= plan.videoSize) return;
        index = Math.floor(answer.uploaded / plan.chunkSize);
        continue;
      }
      if (answer.status === 403 || answer.status === 404) {
        await ctx.checkpoint.save({ uploadUrl: null });
        throw new RetryableError(`TikTok's upload URL ${answer.status === 403 ? 'expired' : 'is gone'}; the next attempt starts a new upload`, { platformCode: String(answer.status) });
      }
      if (answer.status >= 500 && ++failures <= 3) {
        await ctx.clock.sleep(1000 * 2 ** (failures - 1), ctx.signal);
        continue;
      }
      if (answer.status >= 500) throw new RetryableError(`TikTok kept failing chunk ${index + 1} (${answer.status})`, { platformCode: String(answer.status) });
      throw new PermanentError(`TikTok refused chunk ${index + 1} (${answer.status}): malformed upload`, { platformCode: String(answer.status) });
    }
  }

  /** Creator info, privacy, and init: the publish id (and upload URL) are checkpointed before any byte is sent. */
  async function start(ctx: PublishContext, client: TikTokClient, item: MediaItem, allowPull = true): Promise<string> {
    const info = await queryCreatorInfo(ctx, client);
    const options = ctx.target.options as TiktokOptions;
    const privacy = choosePrivacy({ ...defaults, ...ctx.credentials.meta }, info.privacy_level_options ?? [], options.privacy_level);
    const pull = allowPull && ctx.publicBaseUrl !== null && item.publicUrl !== null && item.publicUrl.startsWith('https://');
    const plan = planChunks(item.size, rules, deps.chunkBytes);
    const meta = ctx.credentials.meta;
    // The creator's own "No one" settings win; then the job's options; then the connection's.
    const postInfo: Record<string, unknown> = {
      title: ctx.target.caption,
      privacy_level: privacy,
      disable_duet: info.duet_disabled === true || (options.disable_duet ?? meta.disable_duet === true),
      disable_stitch: info.stitch_disabled === true || (options.disable_stitch ?? meta.disable_stitch === true),
      disable_comment: info.comment_disabled === true || (options.disable_comment ?? meta.disable_comment === true),
      brand_content_toggle: options.brand_content_toggle ?? false,
      brand_organic_toggle: options.brand_organic_toggle ?? false,
      is_aigc: options.is_aigc ?? meta.is_aigc === true,
    };
    if (options.video_cover_timestamp_ms !== undefined) postInfo.video_cover_timestamp_ms = options.video_cover_timestamp_ms;
    const sourceInfo = pull
      ? { source: 'PULL_FROM_URL', video_url: item.publicUrl }
      : { source: 'FILE_UPLOAD', video_size: plan.videoSize, chunk_size: plan.chunkSize, total_chunk_count: plan.totalChunkCount };
    await ctx.checkpoint.save({ privacy, username: info.creator_username ?? null });
    let init: { publish_id: string; upload_url?: string };
    try {
      init = await api<{ publish_id: string; upload_url?: string }>(ctx, client, 'video init', '/v2/post/publish/video/init/', { post_info: postInfo, source_info: sourceInfo }, pull);
    } catch (err) {
      // TikTok pulls only from a domain verified in its developer portal; a refused pull created nothing, so push the bytes instead.
      if (pull && err instanceof PublishError && err.platformCode === 'url_ownership_unverified') {
        ctx.log.warn('TikTok refused to pull from the public URL (domain not verified); uploading the file instead', { url: item.publicUrl });
        return start(ctx, client, item, false);
      }
      throw err;
    }
    await ctx.checkpoint.save({
      publishId: init.publish_id,
      source: pull ? 'PULL_FROM_URL' : 'FILE_UPLOAD',
      uploadUrl: init.upload_url ?? null,
      uploadUrlExpiresAt: ctx.clock.now() + UPLOAD_URL_TTL_MS,
      plan,
      uploadedAll: pull,
    });
    if (!pull) {
      await upload(ctx, client, item, init.upload_url as string, plan, 0);
      await ctx.checkpoint.save({ uploadedAll: true });
    }
    return init.publish_id;
  }

  /**
   * A photo post (docs/reference/platforms.md §12.5.3): creator info and privacy as for a video, then
   * content/init with the images' public URLs (PULL_FROM_URL is TikTok's only source for
   * photos); the publish id is checkpointed before anything else happens.
   */
  async function startPhoto(ctx: PublishContext, client: TikTokClient): Promise<string> {
    const info = await queryCreatorInfo(ctx, client);
    const options = ctx.target.options as TiktokOptions;
    const privacy = choosePrivacy({ ...defaults, ...ctx.credentials.meta }, info.privacy_level_options ?? [], options.privacy_level);
    const images = ctx.media.map((m, i) => {
      if (!m.publicUrl?.startsWith('https://')) {
        throw new PermanentError(`TikTok pulls photos from public https URLs; image ${i + 1} has none (start the daemon with --public-url, or use a public image URL)`, { platformCode: 'no_public_url' });
      }
      return m.publicUrl;
    });
    const meta = ctx.credentials.meta;
    const body = {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        description: ctx.target.caption,
        privacy_level: privacy,
        disable_comment: info.comment_disabled === true || (options.disable_comment ?? meta.disable_comment === true),
        auto_add_music: options.auto_add_music ?? false,
        brand_content_toggle: options.brand_content_toggle ?? false,
        brand_organic_toggle: options.brand_organic_toggle ?? false,
      },
      source_info: { source: 'PULL_FROM_URL', photo_images: images, photo_cover_index: options.photo_cover_index ?? 0 },
      // Top level for photos, inside post_info for videos (§12.8).
      is_aigc: options.is_aigc ?? meta.is_aigc === true,
    };
    await ctx.checkpoint.save({ privacy, username: info.creator_username ?? null });
    const init = await api<{ publish_id: string }>(ctx, client, 'photo init', '/v2/post/publish/content/init/', body, true);
    await ctx.checkpoint.save({ publishId: init.publish_id, source: 'PULL_FROM_URL', uploadedAll: true });
    return init.publish_id;
  }

  async function finish(ctx: PublishContext, client: TikTokClient, publishId: string, first?: StatusData): Promise<PublishOutcome> {
    const status = await waitForPublish(ctx, client, publishId, first);
    const out = outcome(ctx.checkpoint.data as TiktokCheckpoint, publishId, status, ctx.target.type === 'photo' ? 'photo' : 'video');
    await ctx.checkpoint.save({ postId: out.postId, postUrl: out.postUrl });
    return out;
  }

  /** Continues an earlier attempt from its publish id, or returns null when a fresh start is needed. */
  async function resume(ctx: PublishContext, client: TikTokClient, item: MediaItem): Promise<PublishOutcome | null> {
    const cp = ctx.checkpoint.data as TiktokCheckpoint;
    if (!cp.publishId) return null;
    let status: StatusData;
    try {
      status = await fetchStatus(ctx, client, cp.publishId);
    } catch (err) {
      if (err instanceof PublishError && (err.platformCode === 'invalid_publish_id' || err.platformCode === 'token_not_authorized_for_specified_publish_id')) return null;
      throw err;
    }
    if (status.status === 'FAILED') {
      const failure = failReasonError(status.fail_reason);
      if (failure instanceof PermanentError) throw failure;
      await ctx.checkpoint.save({ publishId: null, uploadUrl: null, uploadedAll: false });
      return null;
    }
    if (status.status === 'PROCESSING_UPLOAD' && cp.source === 'FILE_UPLOAD' && !cp.uploadedAll) {
      const usable = cp.uploadUrl && (cp.uploadUrlExpiresAt ?? 0) > ctx.clock.now() + 60_000 && cp.plan;
      // An upload that can no longer continue never publishes: starting again cannot post twice.
      if (!usable) return null;
      const held = status.uploaded_bytes ?? 0;
      await upload(ctx, client, item, cp.uploadUrl as string, cp.plan as ChunkPlan, Math.min(Math.floor(held / (cp.plan as ChunkPlan).chunkSize), (cp.plan as ChunkPlan).totalChunkCount));
      await ctx.checkpoint.save({ uploadedAll: true });
      return finish(ctx, client, cp.publishId);
    }
    return finish(ctx, client, cp.publishId, status);
  }

  return {
    platform: 'tiktok',
    validate: validateTiktok,
    checkAccount: (input) => checkCreatorAccount(input, creatorDeps),

    async publish(ctx) {
      const cp = ctx.checkpoint.data as TiktokCheckpoint;
      if (cp.postId) return { postId: cp.postId, postUrl: cp.postUrl ?? null };
      if (ctx.target.type === 'photo') {
        const client = await clientFor(ctx);
        const resumed = await resume(ctx, client, ctx.media[0] as MediaItem);
        return resumed ?? finish(ctx, client, await startPhoto(ctx, client));
      }
      const item = onlyVideo(ctx.media, 'A TikTok post');
      const client = await clientFor(ctx);
      const resumed = await resume(ctx, client, item);
      if (resumed) return resumed;
      const publishId = await start(ctx, client, item);
      return finish(ctx, client, publishId);
    },

    async reconcile(ctx): Promise<ReconcileResult> {
      const cp = ctx.checkpoint.data as TiktokCheckpoint;
      if (cp.postId) return { state: 'published', outcome: { postId: cp.postId, postUrl: cp.postUrl ?? null } };
      if (!cp.publishId) return { state: 'not_published', reason: 'TikTok never gave this attempt a publish id' };
      try {
        const client = await clientFor(ctx);
        const status = await fetchStatus(ctx, client, cp.publishId);
        if (status.status === 'FAILED') return { state: 'not_published', reason: `TikTok reports the publish failed (${status.fail_reason ?? 'unknown'})` };
        if (status.status === 'PROCESSING_UPLOAD' && cp.source === 'FILE_UPLOAD' && !cp.uploadedAll) {
          return { state: 'not_published', reason: 'The upload was interrupted before the last chunk; publishing again resumes or restarts it' };
        }
        return { state: 'published', outcome: await finish(ctx, client, cp.publishId, status) };
      } catch (err) {
        if (err instanceof PublishError && err.platformCode === 'invalid_publish_id') return { state: 'not_published', reason: 'TikTok does not know the publish id' };
        if (isPublishFailure(err)) return { state: 'not_published', reason: (err as Error).message };
        return { state: 'unknown', reason: `Could not ask TikTok about publish ${cp.publishId}: ${(err as Error).message}` };
      }
    },
  };
}
