import type { Got } from 'got';
import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment } from '../conversations';
import { PermanentError } from '../errors';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { comparable, replyReadingBack } from '../shared/reply-reading-back';
import { GoogleApiError, GoogleClient } from './google-client';
import { mapGoogleError } from './map-google-error';
import { youtubeTokenRefresher } from './refresh-token';

const HOST = 'www.googleapis.com';
/** Pages of 100 read per listing at most (commentThreads.list and comments.list cost 1 unit each). */
const MAX_PAGES = 10;

/** A YouTube comment resource, as far as the inbox reads it. */
interface YtComment {
  id: string;
  snippet?: {
    videoId?: string;
    parentId?: string;
    textOriginal?: string;
    textDisplay?: string;
    authorDisplayName?: string;
    authorChannelUrl?: string;
    authorChannelId?: { value?: string };
    publishedAt?: string;
  };
}

interface YtThread {
  id: string;
  snippet?: { topLevelComment?: YtComment; totalReplyCount?: number };
  replies?: { comments?: YtComment[] };
}

interface YtPage<T> {
  items?: T[];
  nextPageToken?: string;
}

/**
 * YouTube conversations (docs/reference/platforms.md §17): commentThreads.list by `videoId`
 * (`part=snippet,replies`, 1 unit a page), with comments.list by `parentId` where a thread has
 * more replies than it carries. Replies are one level deep: a reply is comments.insert with
 * `snippet.parentId` the top-level comment (50 units; a reply to a reply goes under its top
 * comment). YouTube has no idempotency key: a reply whose request went out before is looked
 * for (our channel, this text, under that comment) before it is sent again. Hiding is
 * comments.setModerationStatus `rejected` (the video's owner; the comment and its replies
 * are then shown to no one else). Scope: youtube.force-ssl.
 */
export function createYoutubeComments(deps: { http?: Got; requestTimeoutMs?: number } = {}): CommentsClient {
  async function call<T>(ctx: CallContext, step: string, run: (client: GoogleClient) => Promise<T>): Promise<T> {
    const token = await ensureAccessToken(ctx, youtubeTokenRefresher);
    const client = new GoogleClient({ baseUrl: ctx.baseUrl(HOST), token, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
    return callRenewingToken(ctx, () => run(client), {
      refused: (err) => err instanceof GoogleApiError && err.status === 401,
      renew: async () => client.setToken(await ensureAccessToken(ctx, youtubeTokenRefresher, { force: true })),
      mapError: (err) => mapGoogleError(err, { now: ctx.clock.now(), step }),
    });
  }

  async function pages<T>(ctx: CallContext, step: string, path: string, query: Record<string, string>): Promise<T[]> {
    const out: T[] = [];
    let token: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await call(ctx, step, (c) => c.json<YtPage<T>>('GET', path, { ...query, maxResults: '100', ...(token ? { pageToken: token } : {}) }, step));
      out.push(...(page?.items ?? []));
      token = page?.nextPageToken;
      if (!token) break;
    }
    return out;
  }

  // The connection's account is its channel (UC…); a sandbox connection's is not, and the channel then follows from the token.
  const myChannel = async (ctx: CallContext): Promise<string | null> =>
    (ctx.credentials.accountId && /^UC[A-Za-z0-9_-]{22}$/.test(ctx.credentials.accountId) ? ctx.credentials.accountId : null) ?? (await call(ctx, 'channel lookup', (c) => c.json<YtPage<{ id: string }>>('GET', '/youtube/v3/channels', { part: 'id', mine: 'true' }, 'channel lookup')))?.items?.[0]?.id ?? null;

  const repliesUnder = (ctx: CallContext, parentId: string) => pages<YtComment>(ctx, 'replies lookup', '/youtube/v3/comments', { part: 'snippet', parentId, textFormat: 'plainText' });

  function remote(c: YtComment, videoId: string, parent: string, thread: string[], me: string | null, now: number): RemoteComment {
    const s = c.snippet ?? {};
    return {
      id: c.id,
      inReplyTo: parent,
      thread,
      author: { name: s.authorDisplayName ?? null, handle: s.authorDisplayName ?? s.authorChannelId?.value ?? 'unknown', url: s.authorChannelUrl ?? null },
      text: s.textOriginal ?? s.textDisplay ?? '',
      url: `https://www.youtube.com/watch?v=${videoId}&lc=${c.id}`,
      createdAt: Date.parse(s.publishedAt ?? '') || now,
      own: me !== null && s.authorChannelId?.value === me,
    };
  }

  /** The top-level comment a reply goes under: the comment itself, or a reply's parent. */
  const topOf = (commentId: string) => commentId.split('.')[0]!;

  return {
    async list(ctx, postId) {
      const me = await myChannel(ctx);
      const threads = await pages<YtThread>(ctx, 'comments lookup', '/youtube/v3/commentThreads', { part: 'snippet,replies', videoId: postId, order: 'time', textFormat: 'plainText' });
      const out: RemoteComment[] = [];
      for (const t of threads) {
        const top = t.snippet?.topLevelComment;
        if (!top) continue;
        out.push(remote(top, postId, postId, [postId], me, ctx.clock.now()));
        let replies = t.replies?.comments ?? [];
        if ((t.snippet?.totalReplyCount ?? 0) > replies.length) replies = await repliesUnder(ctx, top.id);
        for (const r of replies) out.push(remote(r, postId, top.id, [postId, top.id], me, ctx.clock.now()));
      }
      return out;
    },

    async reply(ctx, to, text) {
      const parentId = topOf(to.commentId);
      const find = async () => {
        const me = await myChannel(ctx);
        const want = comparable(text);
        const ours = (await repliesUnder(ctx, parentId)).find((r) => r.snippet?.authorChannelId?.value === me && comparable(r.snippet?.textOriginal ?? r.snippet?.textDisplay ?? '') === want);
        return ours ? { id: ours.id, url: `https://www.youtube.com/watch?v=${to.postId}&lc=${ours.id}` } : null;
      };
      return replyReadingBack(ctx, find, async () => {
        const made = await call(ctx, 'reply', (c) => c.json<YtComment>('POST', '/youtube/v3/comments', { part: 'snippet' }, 'reply', { snippet: { parentId, textOriginal: text } }));
        if (!made?.id) throw new PermanentError('YouTube answered the reply without a comment id', { platformCode: 'no-id' });
        return { id: made.id, url: `https://www.youtube.com/watch?v=${to.postId}&lc=${made.id}` };
      });
    },

    // comments.delete: the author's own comment (204); one YouTube no longer has (404 commentNotFound) is gone.
    async deleteReply(ctx, r) {
      try {
        await call(ctx, 'reply deletion', (c) => c.json('DELETE', '/youtube/v3/comments', { id: r.replyId }, 'reply deletion'));
        return 'deleted';
      } catch (err) {
        const cause = err instanceof GoogleApiError ? err : (err as { cause?: unknown }).cause;
        if (cause instanceof GoogleApiError && cause.status === 404) return 'already_gone';
        throw err;
      }
    },

    async hide(ctx, to) {
      await call(ctx, 'comment moderation', (c) => c.json('POST', '/youtube/v3/comments/setModerationStatus', { id: to.commentId, moderationStatus: 'rejected' }, 'comment moderation'));
    },
  };
}
