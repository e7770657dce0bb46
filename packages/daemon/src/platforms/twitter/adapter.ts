import type { Got } from 'got';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { OutcomeUnknownError, PermanentError, PublishError, RetryableError } from '../errors';
import { callRenewingToken } from '../shared/call-renewing-token';
import { readMediaChunk } from '../shared/read-media-chunk';
import { withReplies } from '../shared/follow-ups/with-replies';
import type { ReplyPoster, PostedRef } from '../shared/follow-ups/reply-poster';
import { mapXError } from './map-x-error';
import { xHandle, xPermalink } from './permalink';
import { tweetOptionFields, type TweetOptionFields } from './tweet-options';
import { isGif, validateTwitter } from './validate';
import { xAuthFor } from './x-auth';
import { XApiError, XClient } from './x-client';

export interface TwitterAdapterDeps {
  /** APPEND chunk size for videos and GIFs. Default 4 MiB (X documented ≤ 5 MB per segment). */
  chunkBytes?: number;
  /** Per-request timeout. Default 60 s. */
  requestTimeoutMs?: number;
  /** Give up waiting for media processing after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  /** Reconcile waits until this long after the post request before concluding "not posted" (X reads lag a little). Default 30 s. */
  reconcileSettleMs?: number;
  http?: Got;
}

const HOST = 'api.x.com';

interface MediaCheckpoint {
  id: string;
  /** uploading: chunks appended up to `segments`; processing: finalized; ready: usable in a post. */
  state: 'uploading' | 'processing' | 'ready';
  segments?: number;
  /** Epoch ms after which X forgets the media id. */
  expiresAt: number;
}

interface TwitterCheckpoint {
  media?: Record<string, MediaCheckpoint>;
  /** Set just before POST /2/tweets: from here on a post may exist. */
  tweetRequestedAt?: number;
  tweetId?: string;
  username?: string | null;
}

/** What a POST /2/tweets body needs (docs/reference/platforms.md §3.1 A; the spec's CreatePostsRequest). */
interface CreatePostBody extends TweetOptionFields {
  text: string;
  media?: { media_ids: string[] };
  /** A reply (a thread part, a first comment): CreatePostsReply (docs/reference/platforms.md §12.3.2). */
  reply?: { in_reply_to_tweet_id: string };
}

function normalizeForMatch(text: string): string {
  return text
    .normalize('NFC')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/https?:\/\/\S+/g, 'URL') // X rewrites links to t.co
    .replace(/\s+/g, ' ')
    .trim();
}

export function createTwitterAdapter(deps: TwitterAdapterDeps = {}): PlatformAdapter {
  const chunkBytes = deps.chunkBytes ?? 4 * 1024 * 1024;
  const maxProcessingMs = deps.maxProcessingMs ?? 30 * 60_000;
  const settleMs = deps.reconcileSettleMs ?? 30_000;

  const authFor = xAuthFor;
  // Handles asked of X (GET /2/users/me) by account id, so a connection whose handle was not
  // stored at connect time (sandbox connections) asks once per daemon run, not once a post
  // (posts of one account in flight together share the one question). A handle only shapes
  // the permalink (x.com/<handle>/status/<id> resolves whatever it is).
  const askedHandles = new Map<string, Promise<string | null>>();

  async function clientFor(ctx: PublishContext): Promise<XClient> {
    return new XClient({ baseUrl: ctx.baseUrl(HOST), auth: await authFor(ctx), signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
  }

  /** Runs one call; a 401 on an OAuth 2.0 token refreshes it once and repeats (a 401 created nothing). */
  async function call<T>(ctx: PublishContext, client: XClient, step: string, creates: boolean, run: () => Promise<T>): Promise<T> {
    return callRenewingToken(ctx, run, {
      // OAuth 1.0a keys never expire: a 401 for them is final.
      refused: (err) => err instanceof XApiError && err.status === 401 && !ctx.credentials.secrets.oauth_token,
      renew: async () => client.setAuth(await authFor(ctx, true)),
      mapError: (err) => mapXError(err, { now: ctx.clock.now(), creates, step }),
    });
  }

  /** Media checkpoints are keyed by index ("0") for the post, "p<part>.<index>" for a thread part's. */
  async function saveMedia(ctx: PublishContext, key: string, m: MediaCheckpoint): Promise<void> {
    const media = { ...((ctx.checkpoint.data as TwitterCheckpoint).media ?? {}), [key]: m };
    await ctx.checkpoint.save({ media });
  }

  async function uploadImage(ctx: PublishContext, client: XClient, item: MediaItem, index: number, key: string): Promise<string> {
    const bytes = await readMediaChunk(item, 0, item.size);
    const form = new FormData();
    form.set('media', new Blob([new Uint8Array(bytes)], { type: item.mimeType }), `media-${index}`);
    form.set('media_category', 'tweet_image');
    const res = await call(ctx, client, 'image upload', false, () =>
      client.request<{ data: { id: string; expires_after_secs?: number; processing_info?: ProcessingInfo } }>('/2/media/upload', { method: 'POST', multipart: form }),
    );
    const d = res.body.data;
    await saveMedia(ctx, key, { id: d.id, state: d.processing_info ? 'processing' : 'ready', expiresAt: ctx.clock.now() + (d.expires_after_secs ?? 86_400) * 1000 });
    if (d.processing_info) await waitForProcessing(ctx, client, d.id, d.processing_info, index, key);
    return d.id;
  }

  async function uploadChunked(ctx: PublishContext, client: XClient, item: MediaItem, index: number, key: string, previous: MediaCheckpoint | undefined): Promise<string> {
    const category = item.kind === 'video' ? 'tweet_video' : 'tweet_gif';
    let state = previous?.state === 'uploading' && previous.expiresAt > ctx.clock.now() + 60_000 ? previous : undefined;
    if (!state) {
      const res = await call(ctx, client, 'media initialize', false, () =>
        client.request<{ data: { id: string; expires_after_secs?: number } }>('/2/media/upload/initialize', {
          method: 'POST',
          json: { media_type: item.mimeType, total_bytes: item.size, media_category: category },
        }),
      );
      state = { id: res.body.data.id, state: 'uploading', segments: 0, expiresAt: ctx.clock.now() + (res.body.data.expires_after_secs ?? 86_400) * 1000 };
      await saveMedia(ctx, key, state);
    }
    const id = state.id;
    const total = Math.max(1, Math.ceil(item.size / chunkBytes));
    for (let seg = state.segments ?? 0; seg < total; seg++) {
      const offset = seg * chunkBytes;
      const bytes = await readMediaChunk(item, offset, Math.min(chunkBytes, item.size - offset));
      const form = new FormData();
      form.set('media', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), `segment-${seg}`);
      form.set('segment_index', String(seg));
      await call(ctx, client, 'media append', false, () => client.request(`/2/media/upload/${id}/append`, { method: 'POST', multipart: form }));
      await saveMedia(ctx, key, { ...state, segments: seg + 1 });
    }
    const fin = await call(ctx, client, 'media finalize', false, () =>
      client.request<{ data: { id: string; expires_after_secs?: number; processing_info?: ProcessingInfo } }>(`/2/media/upload/${id}/finalize`, { method: 'POST' }),
    );
    const d = fin.body.data;
    const expiresAt = ctx.clock.now() + (d.expires_after_secs ?? 86_400) * 1000;
    await saveMedia(ctx, key, { id, state: d.processing_info ? 'processing' : 'ready', expiresAt });
    if (d.processing_info) await waitForProcessing(ctx, client, id, d.processing_info, index, key, expiresAt);
    return id;
  }

  /** STATUS polling, sleeping `check_after_secs` between checks (docs/reference/platforms.md §3.1 C.4). */
  async function waitForProcessing(ctx: PublishContext, client: XClient, id: string, first: ProcessingInfo, index: number, key: string, expiresAt?: number): Promise<void> {
    let info: ProcessingInfo | undefined = first;
    const deadline = ctx.clock.now() + maxProcessingMs;
    while (info && info.state !== 'succeeded') {
      if (info.state === 'failed') {
        const why = info.error?.message ?? info.error?.name ?? 'X could not process the media';
        throw new PermanentError(`X could not process media ${index + 1}: ${why}`, { platformCode: 'media-processing-failed' });
      }
      if (ctx.clock.now() >= deadline) throw new RetryableError(`X is still processing media ${index + 1} after ${Math.round(maxProcessingMs / 60_000)} minutes`, { platformCode: 'media-processing' });
      await ctx.clock.sleep(Math.max(1, info.check_after_secs ?? 1) * 1000, ctx.signal);
      const res = await call(ctx, client, 'media status', false, () =>
        client.request<{ data: { id: string; processing_info?: ProcessingInfo } }>('/2/media/upload', { method: 'GET', query: { command: 'STATUS', media_id: id } }),
      );
      info = res.body.data.processing_info;
    }
    const cp = (ctx.checkpoint.data as TwitterCheckpoint).media?.[key];
    await saveMedia(ctx, key, { id, state: 'ready', expiresAt: expiresAt ?? cp?.expiresAt ?? ctx.clock.now() + 86_400_000 });
  }

  async function uploadAll(ctx: PublishContext, client: XClient, items: MediaItem[] = ctx.media, prefix = ''): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, item] of items.entries()) {
      const key = `${prefix}${index}`;
      const prev = (ctx.checkpoint.data as TwitterCheckpoint).media?.[key];
      const usable = prev && prev.expiresAt > ctx.clock.now() + 5 * 60_000;
      if (usable && prev.state === 'ready') {
        ids.push(prev.id);
        continue;
      }
      if (usable && prev.state === 'processing') {
        await waitForProcessing(ctx, client, prev.id, { state: 'pending', check_after_secs: 0 }, index, key, prev.expiresAt);
        ids.push(prev.id);
        continue;
      }
      const chunked = item.kind === 'video' || isGif(item);
      ids.push(chunked ? await uploadChunked(ctx, client, item, index, key, prev) : await uploadImage(ctx, client, item, index, key));
    }
    return ids;
  }

  /** The account's handle for permalinks: stored at connect time, else asked once (GET /2/users/me). */
  async function handleOf(ctx: PublishContext, client: XClient): Promise<string | null> {
    const metaName = xHandle(ctx.credentials.meta.username);
    if (metaName) return metaName;
    const cp = ctx.checkpoint.data as TwitterCheckpoint;
    if (cp.username !== undefined) return cp.username;
    const accountId = ctx.credentials.accountId;
    // Asked (or being asked, by a post of the same account in flight) already: its answer.
    const asked = accountId ? askedHandles.get(accountId) : undefined;
    if (asked) return asked;
    const asking = client
      .request<{ data?: { username?: string } }>('/2/users/me', { method: 'GET' })
      .then((me) => me.body.data?.username ?? null)
      // A permalink is never worth failing a live post.
      .catch(() => null)
      .then(xHandle);
    if (accountId) askedHandles.set(accountId, asking);
    const username = await asking;
    // Not known: the next post asks again.
    if (accountId && username === null && askedHandles.get(accountId) === asking) askedHandles.delete(accountId);
    await ctx.checkpoint.save({ username });
    return username;
  }

  /** Finds the post an unanswered request made (waiting out X's read lag once); null when not found or X cannot be asked. */
  async function lookAfterUnknown(ctx: PublishContext, client: XClient, requestedAt: number): Promise<string | null> {
    const since = Math.min(requestedAt, ctx.target.attemptStartedAt);
    try {
      const found = await findPost(ctx, client, since);
      if (found) return found;
      const settleAt = requestedAt + settleMs;
      if (ctx.clock.now() < settleAt) await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
      return await findPost(ctx, client, since);
    } catch {
      return null;
    }
  }

  async function outcomeFor(ctx: PublishContext, client: XClient, id: string): Promise<PublishOutcome> {
    const handle = await handleOf(ctx, client);
    return { postId: id, postUrl: xPermalink(handle, id) };
  }

  /** Looks for a post with this text by the user since `since` (GET /2/users/{id}/tweets). */
  async function findPost(ctx: PublishContext, client: XClient, since: number): Promise<string | null> {
    let userId = ctx.credentials.accountId;
    if (!userId || !/^[0-9]{1,19}$/.test(userId)) {
      const me = await client.request<{ data?: { id?: string } }>('/2/users/me', { method: 'GET' });
      userId = me.body.data?.id ?? null;
      if (!userId) return null;
    }
    const res = await client.request<{ data?: Array<{ id: string; text: string }> }>(`/2/users/${userId}/tweets`, {
      method: 'GET',
      query: { start_time: new Date(since - 5_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), max_results: '100', exclude: 'replies,retweets' },
    });
    const want = normalizeForMatch(ctx.target.caption);
    return res.body.data?.find((t) => normalizeForMatch(t.text) === want)?.id ?? null;
  }

  /** Posts a reply to `parentId` (docs/reference/platforms.md §12.3.2: each part answers the one before). */
  async function postReply(ctx: PublishContext, parentId: string, text: string, mediaIds: string[], step: string, client: XClient, sending?: () => Promise<void>): Promise<PostedRef> {
    await sending?.();
    const body: CreatePostBody = { text: text.normalize('NFC'), reply: { in_reply_to_tweet_id: parentId } };
    if (mediaIds.length > 0) body.media = { media_ids: mediaIds };
    const res = await call(ctx, client, step, true, () => client.request<{ data: { id: string } }>('/2/tweets', { method: 'POST', json: body }));
    const out = await outcomeFor(ctx, client, res.body.data.id);
    return { id: out.postId, url: out.postUrl };
  }

  const followUps: ReplyPoster = {
    async reply(ctx, parentId, part) {
      const client = await clientFor(ctx);
      const mediaIds = await uploadAll(ctx, client, part.media, `p${part.part}.`);
      return postReply(ctx, parentId, part.caption, mediaIds, `thread part ${part.part}`, client, part.sending);
    },
    async comment(ctx, post, text) {
      return postReply(ctx, post.postId, text, [], 'first comment', await clientFor(ctx));
    },
  };

  return withReplies({
    platform: 'twitter',
    validate: validateTwitter,

    async publish(ctx) {
      const cp = ctx.checkpoint.data as TwitterCheckpoint;
      const client = await clientFor(ctx);
      if (cp.tweetId) return outcomeFor(ctx, client, cp.tweetId);
      if (cp.tweetRequestedAt) {
        // An earlier attempt sent the post and never heard back: look before posting again.
        let found: string | null;
        try {
          found = await findPost(ctx, client, Math.min(cp.tweetRequestedAt, ctx.target.attemptStartedAt));
        } catch (err) {
          throw mapXError(err, { now: ctx.clock.now(), creates: false, step: 'looking for an earlier post' });
        }
        if (found) {
          await ctx.checkpoint.save({ tweetId: found });
          return outcomeFor(ctx, client, found);
        }
      }

      const mediaIds = await uploadAll(ctx, client);
      const body: CreatePostBody = { text: ctx.target.caption.normalize('NFC'), ...tweetOptionFields(ctx.target.options) };
      if (mediaIds.length > 0) body.media = { media_ids: mediaIds };
      const requestedAt = ctx.clock.now();
      await ctx.checkpoint.save({ tweetRequestedAt: requestedAt });
      let id: string;
      try {
        const res = await call(ctx, client, 'post', true, () => client.request<{ data: { id: string; text: string } }>('/2/tweets', { method: 'POST', json: body }));
        id = res.body.data.id;
      } catch (err) {
        if (!(err instanceof OutcomeUnknownError)) throw err;
        // X has no idempotency key: look for the post before anyone is asked to review it.
        const found = await lookAfterUnknown(ctx, client, requestedAt);
        if (!found) throw err;
        id = found;
      }
      await ctx.checkpoint.save({ tweetId: id });
      return outcomeFor(ctx, client, id);
    },

    async reconcile(ctx): Promise<ReconcileResult> {
      const cp = ctx.checkpoint.data as TwitterCheckpoint;
      try {
        const client = await clientFor(ctx);
        if (cp.tweetId) return { state: 'published', outcome: await outcomeFor(ctx, client, cp.tweetId) };
        if (!cp.tweetRequestedAt) return { state: 'not_published', reason: 'The post request was never sent (only media uploads happened)' };
        const since = Math.min(cp.tweetRequestedAt, ctx.target.attemptStartedAt);
        let found = await findPost(ctx, client, since);
        const settleAt = cp.tweetRequestedAt + settleMs;
        if (!found && ctx.clock.now() < settleAt) {
          await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
          found = await findPost(ctx, client, since);
        }
        if (found) {
          await ctx.checkpoint.save({ tweetId: found });
          return { state: 'published', outcome: await outcomeFor(ctx, client, found) };
        }
        return { state: 'not_published', reason: `No post with this text by the account since ${new Date(since).toISOString()}` };
      } catch (err) {
        const reason = err instanceof PublishError || err instanceof Error ? err.message : String(err);
        return { state: 'unknown', reason: `Could not ask X whether the post exists: ${reason}` };
      }
    },
  }, followUps);
}

interface ProcessingInfo {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed' | string;
  check_after_secs?: number;
  progress_percent?: number;
  error?: { code?: number; name?: string; message?: string };
}
