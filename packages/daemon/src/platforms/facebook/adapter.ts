import { createReadStream, openAsBlob } from 'node:fs';
import type { FacebookOptions } from '@socialpub/core';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RetryableError } from '../errors';
import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { MetaRun, newClient, requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { postMetaComment } from '../meta/post-comment';
import { withReplies } from '../shared/follow-ups/with-replies';
import { validateFacebook } from './validate';
import { validateFacebookOptions } from './validate-options';

export interface FacebookAdapterOptions extends MetaAdapterOptions {
  /** Video status polling (stories wait for `ready`): every 10 s, for up to 20 min. */
  pollIntervalMs?: number;
  maxPollMs?: number;
  /**
   * A feed post whose publishing call got no answer is looked for on the page; its absence
   * counts only once this long has passed since the call (a request cut off on our side may
   * still be completing on Facebook's). Default 30 s.
   */
  reconcileSettleMs?: number;
}

/** How far before the publishing call a matching post may be dated (clock skew between us and Facebook). */
const MATCH_SKEW_MS = 2 * 60_000;
/** Pages of 100 posts read back at most when looking for a post (a page's feed since the call). */
const MAX_FEED_PAGES = 10;

interface StoryStep {
  photoId?: string;
  videoId?: string;
  uploadUrl?: string;
  uploaded?: boolean;
  publishCalledAt?: number;
  postId?: string;
  url?: string | null;
}

interface FbCheckpoint {
  photos?: (string | null)[];
  videoId?: string;
  uploadUrl?: string;
  uploaded?: boolean;
  publishCalledAt?: number;
  /** Which edge the feed post's publishing call went to (the feed can settle `feed` and `photos` calls). */
  via?: 'feed' | 'photos' | 'videos';
  postId?: string;
  postUrl?: string | null;
  stories?: StoryStep[];
}

const LABEL = 'Facebook';
/** Read-after-write on a feed post's create call: its id and link in the one answer. */
const FEED_FIELDS = 'id,permalink_url';

/**
 * Facebook Page publishing with the page token (docs/reference/platforms.md §2): feed (text, link, one
 * or several photos, a video), stories (photo and video flows), reels (start / upload /
 * finish). socialpub pushes the bytes (multipart `source`, rupload), so no public URL is
 * needed. Every remote id is checkpointed before the next step.
 */
export function createFacebookAdapter(options: FacebookAdapterOptions = {}): PlatformAdapter {
  const version = options.graphVersion ?? DEFAULT_GRAPH_VERSION;
  const pollMs = options.pollIntervalMs ?? 10_000;
  const maxPollMs = options.maxPollMs ?? 20 * 60_000;
  const settleMs = options.reconcileSettleMs ?? 30_000;

  const open = (ctx: PublishContext) => {
    const pageId = ctx.credentials.pageId;
    if (!pageId) throw new PermanentError('No Facebook page is selected for this connection. Run `socialpub connect facebook` and pick a page.', { platformCode: 'facebook_page_not_selected' });
    const token = ctx.credentials.secrets.page_token ?? requireToken(ctx, LABEL);
    // Page tokens have no refresh: a dead one needs a new connection.
    const graph = new MetaRun(ctx, LABEL, newClient(ctx, options, 'graph.facebook.com', version, token), null);
    const video = new MetaRun(ctx, LABEL, newClient(ctx, options, 'graph-video.facebook.com', version, token), null);
    const cp: FbCheckpoint = structuredClone(ctx.checkpoint.data as FbCheckpoint);
    const save = () => ctx.checkpoint.save({ ...cp });
    return { pageId, graph, video, cp, save, token };
  };

  type Session = ReturnType<typeof open>;

  const multipart = async (m: MediaItem, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.set('source', await openAsBlob(m.path, { type: m.mimeType }), m.path.split('/').pop() ?? 'media');
    for (const [k, v] of Object.entries(extra)) form.set(k, v);
    return form;
  };

  /** rupload: all bytes from the offset Facebook already holds (resumes a broken upload). */
  const upload = async (s: Session, url: string, videoId: string, m: MediaItem) => {
    let offset = 0;
    try {
      const st = await s.graph.call<{ status?: { uploading_phase?: { bytes_transfered?: number } } }>(videoId, { params: { fields: 'status' } });
      offset = st.status?.uploading_phase?.bytes_transfered ?? 0;
    } catch (err) {
      if (err instanceof AuthExpiredError) throw err;
    }
    if (offset >= m.size && m.size > 0) return;
    await s.graph.call(url, {
      method: 'POST',
      authorization: `OAuth ${s.graph.client.token}`,
      headers: { offset: String(offset), file_size: String(m.size), 'content-type': 'application/octet-stream' },
      body: createReadStream(m.path, { start: offset }),
    });
  };

  /** Polls a video until processed (`ready`); an `error` fails with the platform's message. */
  const waitVideo = async (ctx: PublishContext, s: Session, videoId: string) => {
    const started = ctx.clock.now();
    for (;;) {
      const body = await s.graph.call<{ status?: { video_status?: string; processing_phase?: { error?: { message?: string } } } }>(videoId, { params: { fields: 'status' } });
      const st = body.status?.video_status;
      if (st === 'ready') return;
      if (st === 'error' || st === 'upload_failed' || st === 'expired') {
        throw new PermanentError(`Facebook could not process the video: ${body.status?.processing_phase?.error?.message ?? st}`, { platformCode: `video_${st}` });
      }
      if (ctx.clock.now() - started >= maxPollMs) throw new RetryableError(`Facebook is still processing the video after ${Math.round(maxPollMs / 60_000)} min; will check again`, { after: pollMs });
      await ctx.clock.sleep(pollMs, ctx.signal);
    }
  };

  const findStory = async (s: Session, mediaId: string): Promise<{ post_id: string; url?: string } | null> => {
    const body = await s.graph.call<{ data?: { post_id: string; media_id?: string; url?: string }[] }>(`${s.pageId}/stories`);
    return body.data?.find((st) => String(st.media_id) === mediaId) ?? null;
  };

  /**
   * The page's post matching what this target sent: `GET /{page-id}/feed` (docs/reference/platforms.md
   * §2.7) since shortly before the publishing call, newest first, the same message and
   * dated at or after the call (less the clock skew allowed).
   */
  const findFeedPost = async (ctx: PublishContext, s: Session): Promise<{ id: string; permalink_url?: string } | null> => {
    const message = ctx.target.caption;
    if (!message || s.cp.publishCalledAt === undefined) return null;
    const since = s.cp.publishCalledAt - MATCH_SKEW_MS;
    let after: string | undefined;
    // A busy page may have more than a page of posts since the call: follow the cursor (bounded).
    for (let page = 0; page < MAX_FEED_PAGES; page++) {
      const body = await s.graph.call<{ data?: { id: string; message?: string; created_time?: string; permalink_url?: string }[]; paging?: { next?: string; cursors?: { after?: string } } }>(`${s.pageId}/feed`, {
        params: { fields: 'id,message,created_time,permalink_url', since: Math.floor(since / 1000), limit: 100, ...(after ? { after } : {}) },
      });
      const found = body.data?.find((p) => p.message === message && Date.parse(String(p.created_time).replace(/\+0000$/, 'Z')) >= since - 1000);
      if (found) return found;
      after = body.paging?.next ? body.paging.cursors?.after : undefined;
      if (!after) return null;
    }
    throw new RetryableError(`Facebook: more than ${MAX_FEED_PAGES * 100} posts on the page since the publishing call; cannot tell whether this one is among them`, { platformCode: 'feed_too_long' });
  };

  /**
   * Whether the page's feed can settle a lost publishing call both ways: a text, link or
   * photo post with a message. Without a message nothing identifies the post, and a feed
   * video shows on the page only once processed; for those only "found" is an answer.
   */
  const feedSays = (ctx: PublishContext, s: Session) => ctx.target.caption !== '' && (s.cp.via === 'feed' || s.cp.via === 'photos');

  /**
   * findFeedPost, once the settle time after the publishing call has passed: a post Facebook
   * was still making when the call was cut off is on the page by then.
   */
  const settledFeedPost = async (ctx: PublishContext, s: Session): Promise<{ id: string; permalink_url?: string } | null> => {
    const found = await findFeedPost(ctx, s);
    const settleAt = (s.cp.publishCalledAt ?? 0) + settleMs;
    if (found || ctx.clock.now() >= settleAt) return found;
    await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
    return findFeedPost(ctx, s);
  };

  const permalink = async (s: Session, postId: string): Promise<string> => {
    try {
      const body = await s.graph.call<{ permalink_url?: string }>(postId, { params: { fields: 'permalink_url' } });
      if (body.permalink_url) return body.permalink_url;
    } catch {
      // Never fail a live post over its link.
    }
    return `https://www.facebook.com/${postId}`;
  };

  /**
   * The call that makes the post. A lost answer is settled by looking: found -> done.
   * Not found is trusted only where the page's own record is authoritative (stories by
   * media id, reels by publish status, feed posts with a message by the page's feed:
   * `absentMeansNot`), and then the step is retried; otherwise it stays unknown (needs
   * review) rather than risk a second post.
   */
  const publishing = async <T>(call: () => Promise<T>, settle: () => Promise<boolean>, absentMeansNot = false): Promise<T | null> => {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError)) throw err;
      let found: boolean;
      try {
        found = await settle();
      } catch {
        throw err;
      }
      if (found) return null;
      if (absentMeansNot) throw new RetryableError(`${err.message}; Facebook shows it was not published, so it will be tried again`, { platformCode: err.platformCode, cause: err });
      throw err;
    }
  };

  const publishFeed = async (ctx: PublishContext, s: Session): Promise<PublishOutcome> => {
    const media = ctx.media;
    const message = ctx.target.caption || undefined;
    // platform_options.facebook (docs/reference/platforms.md §12.2.1): an explicit link, a place.
    const { link: linkOption, place } = ctx.target.options as FacebookOptions;
    if (s.cp.postId) return { postId: s.cp.postId, postUrl: s.cp.postUrl ?? (await permalink(s, s.cp.postId)) };
    if (s.cp.publishCalledAt !== undefined) {
      // A previous attempt called the publishing endpoint and never heard back.
      const found = await settledFeedPost(ctx, s);
      if (found) return finishFeed(s, found.id, found.permalink_url);
      if (!feedSays(ctx, s)) throw new OutcomeUnknownError('Facebook: an earlier attempt may have published this post and it cannot be found on the page; check the page before posting again');
      // The page's feed holds no such post since that call: it was not made, so it is made now.
    }
    const settleFeed = async () => {
      const found = await settledFeedPost(ctx, s);
      if (found) {
        s.cp.postId = found.id;
        s.cp.postUrl = found.permalink_url ?? null;
      }
      return Boolean(found);
    };
    const markCalled = async (via: NonNullable<FbCheckpoint['via']>) => {
      s.cp.publishCalledAt = ctx.clock.now();
      s.cp.via = via;
      await s.save();
    };
    if (media.length === 0) {
      const link = linkOption ?? /\bhttps?:\/\/[^\s<>"]+/.exec(message ?? '')?.[0];
      await markCalled('feed');
      // The permalink is asked for on the create call (read-after-write, docs/reference/platforms.md
      // §2 Permalinks), so no second call reads it.
      const res = await publishing(
        () => s.graph.call<{ id: string; permalink_url?: string }>(`${s.pageId}/feed`, { method: 'POST', params: { message, link, place, fields: FEED_FIELDS } }, { publishing: true }),
        settleFeed,
        feedSays(ctx, s),
      );
      return finishFeed(s, res?.id ?? (s.cp.postId as string), res ? res.permalink_url : (s.cp.postUrl ?? undefined));
    }
    if (media.length === 1 && media[0]?.kind === 'video') {
      const m = media[0];
      await markCalled('videos');
      const res = await publishing(async () => s.video.call<{ id: string }>(`${s.pageId}/videos`, { method: 'POST', multipart: await multipart(m, message ? { description: message } : {}) }, { publishing: true }), settleFeed);
      const id = res?.id ?? (s.cp.postId as string);
      return finishFeed(s, id, res ? `https://www.facebook.com/${s.pageId}/videos/${id}` : (s.cp.postUrl ?? undefined));
    }
    if (media.length === 1) {
      const m = media[0] as MediaItem;
      await markCalled('photos');
      const res = await publishing(async () => s.graph.call<{ id: string; post_id?: string }>(`${s.pageId}/photos`, { method: 'POST', multipart: await multipart(m, { ...(message ? { message } : {}), ...(place ? { place } : {}) }) }, { publishing: true }), settleFeed, feedSays(ctx, s));
      return finishFeed(s, res ? String(res.post_id ?? res.id) : (s.cp.postId as string), s.cp.postUrl ?? undefined);
    }
    // Several photos: unpublished photos (invisible), then one feed post attaching them.
    s.cp.photos ??= media.map(() => null);
    for (const [i, m] of media.entries()) {
      if (s.cp.photos[i]) continue;
      if (m.kind !== 'image') throw new PermanentError('A Facebook post with several media takes photos only');
      const res = await s.graph.call<{ id: string }>(`${s.pageId}/photos`, { method: 'POST', multipart: await multipart(m, { published: 'false' }) });
      s.cp.photos[i] = String(res.id);
      await s.save();
    }
    await markCalled('feed');
    const attached = JSON.stringify(s.cp.photos.map((id) => ({ media_fbid: id })));
    const res = await publishing(
      () => s.graph.call<{ id: string; permalink_url?: string }>(`${s.pageId}/feed`, { method: 'POST', params: { message, attached_media: attached, place, fields: FEED_FIELDS } }, { publishing: true }),
      settleFeed,
      feedSays(ctx, s),
    );
    return finishFeed(s, res?.id ?? (s.cp.postId as string), res ? res.permalink_url : (s.cp.postUrl ?? undefined));
  };

  const finishFeed = async (s: Session, postId: string, url?: string): Promise<PublishOutcome> => {
    s.cp.postId = postId;
    // With the link already known (asked for on the create call), both in one write.
    if (url === undefined) {
      await s.save();
      s.cp.postUrl = await permalink(s, postId);
    } else {
      s.cp.postUrl = url;
    }
    await s.save();
    return { postId, postUrl: s.cp.postUrl };
  };

  const publishStories = async (ctx: PublishContext, s: Session): Promise<PublishOutcome> => {
    if (!s.cp.stories) {
      // Saved up front: a reconcile (which sees no media) must know how many stories make this target.
      s.cp.stories = ctx.media.map(() => ({}));
      await s.save();
    }
    for (const [i, m] of ctx.media.entries()) {
      const st = (s.cp.stories[i] ??= {});
      if (st.postId) continue;
      let mediaId: string;
      let finish: () => Promise<{ post_id?: string }>;
      if (m.kind === 'image') {
        if (!st.photoId) {
          const res = await s.graph.call<{ id: string }>(`${s.pageId}/photos`, { method: 'POST', multipart: await multipart(m, { published: 'false' }) });
          st.photoId = String(res.id);
          await s.save();
        }
        mediaId = st.photoId;
        finish = () => s.graph.call(`${s.pageId}/photo_stories`, { method: 'POST', params: { photo_id: mediaId } }, { publishing: true });
      } else {
        if (!st.videoId || !st.uploadUrl) {
          const res = await s.graph.call<{ video_id: string; upload_url: string }>(`${s.pageId}/video_stories`, { method: 'POST', params: { upload_phase: 'start' } });
          st.videoId = String(res.video_id);
          st.uploadUrl = res.upload_url;
          await s.save();
        }
        if (!st.uploaded) {
          await upload(s, st.uploadUrl, st.videoId, m);
          st.uploaded = true;
          await s.save();
        }
        await waitVideo(ctx, s, st.videoId);
        mediaId = st.videoId;
        finish = () => s.graph.call(`${s.pageId}/video_stories`, { method: 'POST', params: { upload_phase: 'finish', video_id: mediaId } }, { publishing: true });
      }
      if (st.publishCalledAt !== undefined) {
        const found = await findStory(s, mediaId);
        if (found) {
          Object.assign(st, { postId: String(found.post_id), url: found.url ?? null });
          await s.save();
          continue;
        }
      }
      st.publishCalledAt = ctx.clock.now();
      await s.save();
      let found: { post_id: string; url?: string } | null = null;
      const res = await publishing(finish, async () => Boolean((found = await findStory(s, mediaId))), true);
      st.postId = String(res?.post_id ?? (found as { post_id: string } | null)?.post_id);
      await s.save();
    }
    const first = s.cp.stories[0] as StoryStep;
    if (first.url === undefined) {
      try {
        first.url = (await findStory(s, String(first.photoId ?? first.videoId)))?.url ?? null;
      } catch {
        first.url = null;
      }
      await s.save();
    }
    return { postId: String(first.postId), postUrl: first.url ?? `https://www.facebook.com/stories/${s.pageId}` };
  };

  const reelStatus = async (s: Session, videoId: string) =>
    (await s.graph.call<{ status?: { publishing_phase?: { publish_status?: string } } }>(videoId, { params: { fields: 'status' } })).status?.publishing_phase?.publish_status;

  const publishReel = async (ctx: PublishContext, s: Session): Promise<PublishOutcome> => {
    const m = ctx.media[0];
    if (!m || m.kind !== 'video') throw new PermanentError('A Facebook reel needs one video');
    const out = (id: string): PublishOutcome => ({ postId: id, postUrl: `https://www.facebook.com/reel/${id}` });
    if (s.cp.postId) return out(s.cp.postId);
    if (!s.cp.videoId || !s.cp.uploadUrl) {
      const res = await s.graph.call<{ video_id: string; upload_url: string }>(`${s.pageId}/video_reels`, { method: 'POST', params: { upload_phase: 'start' } });
      s.cp.videoId = String(res.video_id);
      s.cp.uploadUrl = res.upload_url;
      await s.save();
    }
    const videoId = s.cp.videoId;
    if (!s.cp.uploaded) {
      await upload(s, s.cp.uploadUrl, videoId, m);
      s.cp.uploaded = true;
      await s.save();
    }
    if (s.cp.publishCalledAt !== undefined && (await reelStatus(s, videoId)) === 'published') {
      s.cp.postId = videoId;
      await s.save();
      return out(videoId);
    }
    s.cp.publishCalledAt = ctx.clock.now();
    await s.save();
    await publishing(
      () => s.graph.call(`${s.pageId}/video_reels`, { method: 'POST', params: { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: ctx.target.caption || undefined } }, { publishing: true }),
      async () => (await reelStatus(s, videoId)) === 'published',
      true,
    );
    s.cp.postId = videoId;
    await s.save();
    return out(videoId);
  };

  const adapter: PlatformAdapter = {
    platform: 'facebook',
    validate: (input) => [...validateFacebook(input), ...validateFacebookOptions(input)],

    async publish(ctx: PublishContext): Promise<PublishOutcome> {
      const s = open(ctx);
      if (ctx.target.type === 'story') return publishStories(ctx, s);
      if (ctx.target.type === 'reels') return publishReel(ctx, s);
      return publishFeed(ctx, s);
    },

    async reconcile(ctx: PublishContext): Promise<ReconcileResult> {
      const s = open(ctx);
      try {
        if (ctx.target.type === 'reels') {
          if (s.cp.postId) return { state: 'published', outcome: { postId: s.cp.postId, postUrl: `https://www.facebook.com/reel/${s.cp.postId}` } };
          if (!s.cp.videoId || s.cp.publishCalledAt === undefined) return { state: 'not_published', reason: 'the reel was never finished' };
          const st = await reelStatus(s, s.cp.videoId);
          if (st === 'published') return { state: 'published', outcome: { postId: s.cp.videoId, postUrl: `https://www.facebook.com/reel/${s.cp.videoId}` } };
          return { state: 'not_published', reason: `the reel's publish status is ${st ?? 'unknown'}` };
        }
        if (ctx.target.type === 'story') {
          const steps = s.cp.stories ?? [];
          if (steps.length === 0) return { state: 'not_published', reason: 'no story was started' };
          for (const st of steps) {
            if (st.postId) continue;
            const mediaId = st.photoId ?? st.videoId;
            const found = mediaId && st.publishCalledAt !== undefined ? await findStory(s, mediaId) : null;
            if (!found) return { state: 'not_published', reason: `story of ${mediaId ?? 'an unstarted media'} is not on the page` };
            Object.assign(st, { postId: String(found.post_id), url: found.url ?? null });
          }
          await s.save();
          const first = steps[0] as StoryStep;
          return { state: 'published', outcome: { postId: String(first.postId), postUrl: first.url ?? `https://www.facebook.com/stories/${s.pageId}` } };
        }
        if (s.cp.postId) return { state: 'published', outcome: { postId: s.cp.postId, postUrl: s.cp.postUrl ?? `https://www.facebook.com/${s.cp.postId}` } };
        if (s.cp.publishCalledAt === undefined) return { state: 'not_published', reason: 'the publishing call was never made' };
        const found = await settledFeedPost(ctx, s);
        if (found) return { state: 'published', outcome: { postId: found.id, postUrl: found.permalink_url ?? `https://www.facebook.com/${found.id}` } };
        const since = new Date(s.cp.publishCalledAt - MATCH_SKEW_MS).toISOString();
        if (feedSays(ctx, s)) return { state: 'not_published', reason: `no post with this message on the page's feed since ${since}` };
        return {
          state: 'unknown',
          reason: ctx.target.caption === '' ? 'Facebook: the publishing call was made, and a post without a message cannot be told apart on the page' : 'Facebook: the publishing call was made for a feed video, which shows on the page only once processed, and none matches yet',
        };
      } catch (err) {
        return { state: 'unknown', reason: `Facebook: could not check the page: ${(err as Error).message}` };
      }
    },
  };
  // The first comment goes under the published post or reel (stories take none).
  return withReplies(adapter, { comment: (ctx, post, text) => postMetaComment(open(ctx).graph, post.postId, text) });
}
