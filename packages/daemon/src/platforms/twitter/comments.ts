import type { Got } from 'got';
import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment, ReplyContext } from '../conversations';
import { PermanentError } from '../errors';
import { callRenewingToken } from '../shared/call-renewing-token';
import { mapXError } from './map-x-error';
import { xHandle, xPermalink } from './permalink';
import { createTwitterRemover } from './remove';
import { xAuthFor } from './x-auth';
import { XApiError, XClient } from './x-client';

const HOST = 'api.x.com';
/** Pages of 100 read per conversation at most (recent search: 300 requests per 15 minutes per user). */
const MAX_PAGES = 10;

interface SearchAnswer {
  data?: { id: string; text: string; author_id?: string; created_at?: string; referenced_tweets?: { type: string; id: string }[] }[];
  includes?: { users?: { id: string; name?: string; username: string }[] };
  meta?: { next_token?: string };
}

/** What a reply keeps in its checkpoint: when its request first went out (X has no idempotency key: found by reading back). */
interface ReplyCheckpoint {
  sentAt?: number;
}

const comparable = (text: string) => text.normalize('NFC').replace(/\s+/g, '');

/**
 * X conversations (docs/reference/platforms.md §17): the replies under our post are its
 * conversation, `GET /2/tweets/search/recent?query=conversation_id:<post>` (the last 7
 * days), each reply's parent its `referenced_tweets` `replied_to`. A reply is
 * `POST /2/tweets` with `reply.in_reply_to_tweet_id`. X has no idempotency key, so a reply
 * whose request went out before is first looked for (our account, this text, under the
 * comment) before it is sent again; X's refusal of a duplicate text guards the gap search
 * leaves (a reply it has not indexed yet), after which it is looked for once more.
 */
export function createTwitterComments(deps: { http?: Got; requestTimeoutMs?: number } = {}): CommentsClient {
  async function call<T>(ctx: CallContext, step: string, creates: boolean, run: (client: XClient) => Promise<T>): Promise<T> {
    const client = new XClient({ baseUrl: ctx.baseUrl(HOST), auth: await xAuthFor(ctx), signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
    return callRenewingToken(ctx, () => run(client), {
      refused: (err) => err instanceof XApiError && err.status === 401 && !ctx.credentials.secrets.oauth_token,
      renew: async () => client.setAuth(await xAuthFor(ctx, true)),
      mapError: (err) => mapXError(err, { now: ctx.clock.now(), creates, step }),
    });
  }

  // Our handle by connection account, learnt from GET /2/users/me (every read asks it for our id):
  // our replies' URLs take the form published posts take (permalink.ts).
  const handles = new Map<string, string>();
  async function whoAmI(ctx: CallContext): Promise<{ id: string | null; handle: string | null }> {
    const data = (await call(ctx, 'account lookup', false, (c) => c.request<{ data?: { id?: string; username?: string } }>('/2/users/me', { method: 'GET' }))).body.data;
    const handle = xHandle(data?.username);
    if (handle && ctx.credentials.accountId) handles.set(ctx.credentials.accountId, handle);
    return { id: data?.id ?? null, handle };
  }
  const me = async (ctx: CallContext) => (await whoAmI(ctx)).id;
  /** Our handle: stored at connect time, else learnt, else asked; null when X will not say (the URL does without it). */
  async function ourHandle(ctx: CallContext): Promise<string | null> {
    const known = xHandle(ctx.credentials.meta.username) ?? (ctx.credentials.accountId ? handles.get(ctx.credentials.accountId) : undefined);
    if (known) return known;
    // A URL is never worth failing a reply that was sent.
    return (await whoAmI(ctx).catch(() => null))?.handle ?? null;
  }

  async function conversation(ctx: CallContext, postId: string): Promise<SearchAnswer> {
    const out: SearchAnswer = { data: [], includes: { users: [] } };
    let token: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: Record<string, string> = {
        query: `conversation_id:${postId}`,
        max_results: '100',
        'tweet.fields': 'author_id,created_at,conversation_id,in_reply_to_user_id,referenced_tweets',
        expansions: 'author_id',
        'user.fields': 'username,name',
        ...(token ? { next_token: token } : {}),
      };
      const res = await call(ctx, 'replies search', false, (c) => c.request<SearchAnswer>('/2/tweets/search/recent', { method: 'GET', query }));
      out.data!.push(...(res.body.data ?? []));
      out.includes!.users!.push(...(res.body.includes?.users ?? []));
      token = res.body.meta?.next_token;
      if (!token) break;
    }
    return out;
  }

  const parentOf = (t: { referenced_tweets?: { type: string; id: string }[] }) => t.referenced_tweets?.find((r) => r.type === 'replied_to')?.id ?? null;

  async function findOurs(ctx: ReplyContext, to: { postId: string; commentId: string }, text: string): Promise<{ id: string; url: string | null } | null> {
    const [mine, found] = [await whoAmI(ctx), await conversation(ctx, to.postId)];
    const want = comparable(text);
    const t = found.data!.find((x) => x.author_id === mine.id && parentOf(x) === to.commentId && comparable(x.text) === want);
    return t ? { id: t.id, url: xPermalink(xHandle(ctx.credentials.meta.username) ?? mine.handle, t.id) } : null;
  }

  const remover = createTwitterRemover(deps);

  return {
    // Our reply is a post: DELETE /2/tweets/:id, as a take-down deletes one.
    deleteReply: (ctx, r) => remover.deletePost(ctx, r.replyId),

    async list(ctx, postId) {
      const [mine, found] = [await me(ctx), await conversation(ctx, postId)];
      const users = new Map(found.includes!.users!.map((u) => [u.id, u]));
      const parents = new Map(found.data!.map((t) => [t.id, parentOf(t)]));
      return found.data!.map((t): RemoteComment => {
        const chain: string[] = [];
        for (let p = parentOf(t); p !== null && chain.length < 1000; p = parents.get(p) ?? null) {
          chain.unshift(p);
          if (p === postId) break;
        }
        const u = t.author_id ? users.get(t.author_id) : undefined;
        return {
          id: t.id,
          inReplyTo: parentOf(t),
          thread: chain,
          author: { name: u?.name ?? null, handle: u?.username ?? t.author_id ?? 'unknown', url: u ? `https://x.com/${u.username}` : null },
          text: t.text,
          url: xPermalink(u?.username, t.id),
          createdAt: Date.parse(t.created_at ?? '') || ctx.clock.now(),
          own: t.author_id !== undefined && t.author_id === mine,
        };
      });
    },

    // X lets the author of a conversation hide replies in it (tweet.moderate.write).
    async hide(ctx, to) {
      await call(ctx, 'reply hiding', false, (c) => c.request<{ data?: { hidden?: boolean } }>(`/2/tweets/${encodeURIComponent(to.commentId)}/hidden`, { method: 'PUT', json: { hidden: true } }));
    },

    async reply(ctx, to, text) {
      const cp = ctx.checkpoint.data as ReplyCheckpoint;
      const sentBefore = cp.sentAt !== undefined;
      if (sentBefore) {
        const found = await findOurs(ctx, to, text);
        if (found) return found;
      } else {
        await ctx.checkpoint.save({ sentAt: ctx.clock.now() });
      }
      try {
        const res = await call(ctx, 'reply', true, (c) => c.request<{ data?: { id?: string } }>('/2/tweets', { method: 'POST', json: { text, reply: { in_reply_to_tweet_id: to.commentId } } }));
        const id = res.body.data?.id;
        if (!id) throw new PermanentError('X answered the reply without a post id', { platformCode: 'no-id' });
        return { id, url: xPermalink(await ourHandle(ctx), id) };
      } catch (err) {
        // Refused as a duplicate after an earlier send: that earlier reply is ours, look once more.
        if (sentBefore && err instanceof PermanentError) {
          const found = await findOurs(ctx, to, text);
          if (found) return found;
        }
        throw err;
      }
    },
  };
}
