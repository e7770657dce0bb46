import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import type { MastodonOptions } from '@socialpub/core';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError, PublishError, RetryableError } from '../errors';
import type { ReplyPoster, PostedRef } from '../shared/follow-ups/reply-poster';
import { withReplies } from '../shared/follow-ups/with-replies';
import type { MastodonClient } from './mastodon-client';
import { mapMastodonError } from './map-mastodon-error';
import { clientFor, type ClientDeps } from './server-of';
import { limitsOf, mastodonInfo } from './server-limits';
import { plainText } from './status-text';
import { perItem, validateMastodon } from './validate';

export interface MastodonAdapterDeps extends ClientDeps {
  /** Give up waiting for a server to process a media file after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  /** Between GET /api/v1/media/:id checks while the server processes a file. Default 2 s. */
  pollMs?: number;
}

/**
 * How long a server remembers an Idempotency-Key (Mastodon keeps it an hour); a status
 * request older than this margin is looked up before it is sent again.
 */
export const IDEMPOTENCY_TRUST_MS = 50 * 60_000;
/** Mastodon removes media never attached to a status after a day: older uploads are made again. */
const MEDIA_KEEP_MS = 20 * 3_600_000;

interface MediaCheckpoint {
  id: string;
  ready: boolean;
  at: number;
}

interface MastodonCheckpoint {
  media?: Record<string, MediaCheckpoint>;
  /** Set just before POST /api/v1/statuses: from here on the status may exist. */
  statusRequestedAt?: number;
  statusId?: string;
  statusUrl?: string | null;
  /**
   * When each reply's key first went out (`part:2`, `comment`), kept across failures: the
   * server's hour runs from there, and a repeat does not renew it.
   */
  repliesSentAt?: Record<string, number>;
}

interface StatusAnswer {
  id: string;
  url?: string | null;
  uri: string;
  created_at: string;
  content: string;
  in_reply_to_id?: string | null;
  account: { id: string };
}

interface MediaAnswer {
  id: string;
  url?: string | null;
}

/** The Idempotency-Key of one status of a target (the post, a thread part, the comment): the same on every attempt. */
export function idempotencyKey(targetId: string, what: string): string {
  return `socialpub-${createHash('sha256').update(`${targetId}:${what}`).digest('hex').slice(0, 40)}`;
}

/** What a status body carries (the spec's TextStatus / MediaStatus / PollStatus). */
function statusBody(text: string, o: MastodonOptions, mediaIds: string[], inReplyTo: string | null, forPart: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (text !== '' || mediaIds.length === 0) body.status = text;
  if (mediaIds.length > 0) body.media_ids = mediaIds;
  if (inReplyTo) body.in_reply_to_id = inReplyTo;
  if (o.visibility) body.visibility = o.visibility;
  if (o.language) body.language = o.language;
  // A thread part and the comment keep the post's visibility and language; the content
  // warning, the sensitive mark and the poll belong to the post alone.
  if (!forPart) {
    if (o.spoiler_text) body.spoiler_text = o.spoiler_text;
    if (o.sensitive !== undefined) body.sensitive = o.sensitive;
    if (o.poll) {
      body.poll = { options: o.poll.options, expires_in: o.poll.expires_in, ...(o.poll.multiple !== undefined ? { multiple: o.poll.multiple } : {}), ...(o.poll.hide_totals !== undefined ? { hide_totals: o.poll.hide_totals } : {}) };
    }
  }
  return body;
}

const comparable = (text: string) => text.normalize('NFC').replace(/(^|[^\p{L}\p{N}_/@])@([\p{L}\p{N}_.-]+)@[\p{L}\p{N}.-]+/gu, '$1@$2').replace(/\s+/g, '');

export function createMastodonAdapter(deps: MastodonAdapterDeps = {}): PlatformAdapter {
  const maxProcessingMs = deps.maxProcessingMs ?? 30 * 60_000;
  const pollMs = deps.pollMs ?? 2_000;

  const cpOf = (ctx: PublishContext) => ctx.checkpoint.data as MastodonCheckpoint;

  async function call<T>(ctx: PublishContext, step: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw mapMastodonError(err, { now: ctx.clock.now(), step });
    }
  }

  async function saveMedia(ctx: PublishContext, key: string, m: MediaCheckpoint): Promise<void> {
    await ctx.checkpoint.save({ media: { ...(cpOf(ctx).media ?? {}), [key]: m } });
  }

  /** GET /api/v1/media/:id until it has a URL (206 while the server processes it). */
  async function waitForMedia(ctx: PublishContext, client: MastodonClient, key: string, m: MediaCheckpoint, index: number): Promise<void> {
    const deadline = ctx.clock.now() + maxProcessingMs;
    for (;;) {
      const res = await call(ctx, 'media status', () => client.request<MediaAnswer>(`/api/v1/media/${encodeURIComponent(m.id)}`, { method: 'GET' }));
      if (res.status === 200 && res.body.url) break;
      if (ctx.clock.now() >= deadline) {
        throw new RetryableError(`the Mastodon server is still processing media ${index + 1} after ${Math.round(maxProcessingMs / 60_000)} minutes`, { platformCode: 'media-processing' });
      }
      await ctx.clock.sleep(pollMs, ctx.signal);
    }
    await saveMedia(ctx, key, { ...m, ready: true });
  }

  /** POST /api/v2/media with the file, its description and focal point; 202: processed asynchronously. */
  async function upload(ctx: PublishContext, client: MastodonClient, item: MediaItem, index: number, key: string, alt: string | null, focus: string | null): Promise<string> {
    const prev = cpOf(ctx).media?.[key];
    if (prev && prev.at > ctx.clock.now() - MEDIA_KEEP_MS) {
      if (!prev.ready) await waitForMedia(ctx, client, key, prev, index);
      return prev.id;
    }
    // Streamed from the file (a video may be 100 MB): never held in memory whole.
    let file: Blob;
    try {
      file = await openAsBlob(item.path, { type: item.mimeType });
    } catch (err) {
      throw new PermanentError(`The media file for ${item.url} cannot be read: ${(err as Error).message}`, { platformCode: 'media_unavailable', cause: err });
    }
    const form = new FormData();
    const name = item.path.split('/').pop() || `media-${index}`;
    form.set('file', file, name);
    if (alt !== null) form.set('description', alt);
    if (focus !== null) form.set('focus', focus.replace(/\s+/g, ''));
    const res = await call(ctx, `media ${index + 1} upload`, () => client.request<MediaAnswer>('/api/v2/media', { method: 'POST', multipart: form }));
    const m: MediaCheckpoint = { id: res.body.id, ready: res.status === 200 && !!res.body.url, at: ctx.clock.now() };
    await saveMedia(ctx, key, m);
    if (!m.ready) await waitForMedia(ctx, client, key, m, index);
    return m.id;
  }

  async function uploadAll(ctx: PublishContext, client: MastodonClient, items: MediaItem[], prefix: string, o: MastodonOptions): Promise<string[]> {
    const alts = perItem(prefix === '' ? o.alt_text : undefined, items.length);
    const foci = perItem(prefix === '' ? o.focus : undefined, items.length);
    const ids: string[] = [];
    for (const [i, item] of items.entries()) ids.push(await upload(ctx, client, item, i, `${prefix}${i}`, alts[i] ?? null, foci[i] ?? null));
    return ids;
  }

  async function createStatus(ctx: PublishContext, client: MastodonClient, step: string, key: string, body: Record<string, unknown>): Promise<StatusAnswer> {
    const res = await call(ctx, step, () => client.request<StatusAnswer>('/api/v1/statuses', { method: 'POST', json: body, headers: { 'Idempotency-Key': key } }));
    if (!res.body.id) throw new PermanentError(`the Mastodon server answered ${step} without a status id`, { platformCode: 'no-id' });
    return res.body;
  }

  /** The account's id: kept at connect time, else asked (verify_credentials). */
  async function accountId(ctx: PublishContext, client: MastodonClient): Promise<string> {
    const kept = ctx.credentials.accountId;
    if (kept && ctx.credentials.mode === 'live') return kept;
    const me = await client.request<{ id: string }>('/api/v1/accounts/verify_credentials', { method: 'GET' });
    return me.body.id;
  }

  /** A status of the account made since `since` with this text (after the Idempotency-Key's hour, the only way to know). */
  async function findStatus(ctx: PublishContext, client: MastodonClient, since: number, text: string, inReplyTo: string | null): Promise<StatusAnswer | null> {
    const want = comparable(text);
    const match = (s: StatusAnswer) => Date.parse(s.created_at) >= since - 60_000 && (s.in_reply_to_id ?? null) === inReplyTo && comparable(plainText(s.content)) === want;
    if (inReplyTo) {
      const ctxRes = await client.request<{ descendants: StatusAnswer[] }>(`/api/v1/statuses/${encodeURIComponent(inReplyTo)}/context`, { method: 'GET' });
      const me = await accountId(ctx, client);
      return ctxRes.body.descendants.find((s) => s.account.id === me && match(s)) ?? null;
    }
    const me = await accountId(ctx, client);
    const res = await client.request<StatusAnswer[]>(`/api/v1/accounts/${encodeURIComponent(me)}/statuses`, { method: 'GET', query: { limit: '40', exclude_reblogs: 'true' } });
    return res.body.find(match) ?? null;
  }

  const outcome = (s: { id: string; url?: string | null }): PublishOutcome => ({ postId: s.id, postUrl: s.url ?? null });

  async function publishPost(ctx: PublishContext): Promise<PublishOutcome> {
    const cp = cpOf(ctx);
    if (cp.statusId) return { postId: cp.statusId, postUrl: cp.statusUrl ?? null };
    const client = clientFor(ctx, deps);
    const o = ctx.target.options as MastodonOptions;
    if (cp.statusRequestedAt && cp.statusRequestedAt < ctx.clock.now() - IDEMPOTENCY_TRUST_MS) {
      // The server may have forgotten the key: look for the status before sending it again.
      const found = await call(ctx, 'looking for an earlier status', () => findStatus(ctx, client, cp.statusRequestedAt!, ctx.target.caption, null));
      if (found) {
        await ctx.checkpoint.save({ statusId: found.id, statusUrl: found.url ?? null });
        return outcome(found);
      }
    }
    const mediaIds = await uploadAll(ctx, client, ctx.media, '', o);
    // Checkpointed before the request, and kept from a first attempt: the hour of the key runs from there.
    if (!cp.statusRequestedAt || cp.statusRequestedAt < ctx.clock.now() - IDEMPOTENCY_TRUST_MS) await ctx.checkpoint.save({ statusRequestedAt: ctx.clock.now() });
    const status = await createStatus(ctx, client, 'status', idempotencyKey(ctx.target.id, 'post'), statusBody(ctx.target.caption, o, mediaIds, null, false));
    await ctx.checkpoint.save({ statusId: status.id, statusUrl: status.url ?? null });
    return outcome(status);
  }

  /** A reply (a thread part, the first comment) under `parentId`, with its own key. */
  async function postReply(ctx: PublishContext, parentId: string, text: string, media: MediaItem[], what: string, step: string, sending?: () => Promise<void>): Promise<PostedRef> {
    const client = clientFor(ctx, deps);
    const o = ctx.target.options as MastodonOptions;
    // A request of this part (or comment) sent before the server's key may be forgotten: look for it first.
    const sentAt = cpOf(ctx).repliesSentAt?.[what] ?? null;
    if (sentAt !== null && sentAt < ctx.clock.now() - IDEMPOTENCY_TRUST_MS) {
      const found = await call(ctx, `looking for ${step}`, () => findStatus(ctx, client, sentAt, text, parentId));
      if (found) return { id: found.id, url: found.url ?? null };
    }
    const mediaIds = await uploadAll(ctx, client, media, `${what}.`, o);
    await sending?.();
    if (sentAt === null || sentAt < ctx.clock.now() - IDEMPOTENCY_TRUST_MS) {
      await ctx.checkpoint.save({ repliesSentAt: { ...(cpOf(ctx).repliesSentAt ?? {}), [what]: ctx.clock.now() } });
    }
    const key = idempotencyKey(ctx.target.id, what);
    const body = statusBody(text, o, mediaIds, parentId, true);
    // The comment's failure is kept on the target, never retried by the publisher: a lost
    // answer is asked again at once (twice), which the key makes safe.
    for (let tries = what === 'comment' ? 3 : 1; ; tries--) {
      try {
        const status = await createStatus(ctx, client, step, key, body);
        return { id: status.id, url: status.url ?? null };
      } catch (err) {
        if (!(err instanceof RetryableError) || tries <= 1) throw err;
        await ctx.clock.sleep(1_000, ctx.signal);
      }
    }
  }

  const followUps: ReplyPoster = {
    // A part or comment whose answer was lost is sent again with the same Idempotency-Key: the server answers with the status it made.
    replyResumable: true,
    commentResumable: true,
    reply: (ctx, parentId, part) => postReply(ctx, parentId, part.caption, part.media, `part:${part.part}`, `thread part ${part.part}`, () => part.sending()),
    comment: (ctx, post, text) => postReply(ctx, post.postId, text, [], 'comment', 'first comment'),
  };

  return withReplies(
    {
      platform: 'mastodon',
      validate: validateMastodon,
      infoFor: (meta) => mastodonInfo(limitsOf(meta)),
      publish: publishPost,

      async reconcile(ctx): Promise<ReconcileResult> {
        const cp = cpOf(ctx);
        if (cp.statusId) return { state: 'published', outcome: { postId: cp.statusId, postUrl: cp.statusUrl ?? null } };
        if (!cp.statusRequestedAt) return { state: 'not_published', reason: 'the status request was never sent (only media uploads happened)' };
        if (cp.statusRequestedAt >= ctx.clock.now() - IDEMPOTENCY_TRUST_MS) {
          return { state: 'not_published', reason: 'the status request went unanswered; it is sent again with the same Idempotency-Key, which the server answers with the status if it made it' };
        }
        try {
          const found = await findStatus(ctx, clientFor(ctx, deps), cp.statusRequestedAt, ctx.target.caption, null);
          if (!found) return { state: 'not_published', reason: `no status with this text by the account since ${new Date(cp.statusRequestedAt).toISOString()}` };
          await ctx.checkpoint.save({ statusId: found.id, statusUrl: found.url ?? null });
          return { state: 'published', outcome: outcome(found) };
        } catch (err) {
          const reason = err instanceof PublishError || err instanceof Error ? err.message : String(err);
          return { state: 'unknown', reason: `could not ask the Mastodon server whether the status exists: ${reason}` };
        }
      },
    },
    followUps,
  );
}
