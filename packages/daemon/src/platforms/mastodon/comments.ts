import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment, ReplyContext } from '../conversations';
import { PermanentError } from '../errors';
import { IDEMPOTENCY_TRUST_MS, idempotencyKey } from './adapter';
import type { MastodonClient } from './mastodon-client';
import { mapMastodonError } from './map-mastodon-error';
import { clientFor, type ClientDeps } from './server-of';
import { createMastodonRemover } from './remove';
import { plainText } from './status-text';

interface StatusView {
  id: string;
  url?: string | null;
  uri: string;
  created_at: string;
  content: string;
  in_reply_to_id?: string | null;
  account: { id: string; acct: string; display_name?: string; url?: string | null };
}

/** What a reply keeps in its checkpoint: when its key first went out (the server remembers a key for an hour). */
interface ReplyCheckpoint {
  sentAt?: number;
}

const comparable = (text: string) => text.normalize('NFC').replace(/\s+/g, '');

/**
 * Mastodon conversations: `GET /api/v1/statuses/:id/context` (its `descendants`, every
 * depth) lists the replies under our status; a reply is `POST /api/v1/statuses` with
 * `in_reply_to_id` and an Idempotency-Key fixed by the reply, so a repeat within the
 * server's hour answers the status it made; after that hour a reply whose answer was lost
 * is looked for under the comment (our account, this text) before it is sent again.
 */
export function createMastodonComments(deps: ClientDeps = {}): CommentsClient {
  async function call<T>(ctx: CallContext, step: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw mapMastodonError(err, { now: ctx.clock.now(), step });
    }
  }

  const me = async (ctx: CallContext, client: MastodonClient): Promise<string> =>
    (await call(ctx, 'account lookup', () => client.request<{ id: string }>('/api/v1/accounts/verify_credentials', { method: 'GET' }))).body.id;

  async function descendants(ctx: CallContext, client: MastodonClient, statusId: string): Promise<StatusView[]> {
    const res = await call(ctx, 'replies lookup', () => client.request<{ descendants?: StatusView[] }>(`/api/v1/statuses/${encodeURIComponent(statusId)}/context`, { method: 'GET' }));
    return Array.isArray(res.body.descendants) ? res.body.descendants : [];
  }

  const remover = createMastodonRemover(deps);

  return {
    // Our reply is a status: DELETE /api/v1/statuses/:id, as a take-down deletes one.
    deleteReply: (ctx, r) => remover.deletePost(ctx, r.replyId),

    async list(ctx, postId) {
      const client = clientFor(ctx, deps);
      const [mine, found] = [await me(ctx, client), await descendants(ctx, client, postId)];
      const parentOf = new Map(found.map((s) => [s.id, s.in_reply_to_id ?? null]));
      const threadOf = (s: StatusView): string[] => {
        const chain: string[] = [];
        for (let p = s.in_reply_to_id ?? null; p !== null && chain.length < 1000; p = parentOf.get(p) ?? null) {
          chain.unshift(p);
          if (p === postId) break;
        }
        return chain;
      };
      return found.map(
        (s): RemoteComment => ({
          id: s.id,
          inReplyTo: s.in_reply_to_id ?? null,
          thread: threadOf(s),
          author: { name: s.account.display_name || null, handle: s.account.acct, url: s.account.url ?? null },
          text: plainText(s.content),
          url: s.url ?? null,
          createdAt: Date.parse(s.created_at),
          own: s.account.id === mine,
        }),
      );
    },

    async reply(ctx: ReplyContext, to, text) {
      const client = clientFor(ctx, deps);
      const cp = ctx.checkpoint.data as ReplyCheckpoint;
      const now = ctx.clock.now();
      if (cp.sentAt !== undefined && cp.sentAt < now - IDEMPOTENCY_TRUST_MS) {
        // The server may have forgotten the key: a reply of ours with this text under the comment is the one sent.
        const mine = await me(ctx, client);
        const want = comparable(text);
        const found = (await descendants(ctx, client, to.commentId)).find((s) => s.account.id === mine && s.in_reply_to_id === to.commentId && comparable(plainText(s.content)) === want);
        if (found) return { id: found.id, url: found.url ?? null };
      }
      if (cp.sentAt === undefined || cp.sentAt < now - IDEMPOTENCY_TRUST_MS) await ctx.checkpoint.save({ sentAt: now });
      const res = await call(ctx, 'reply', () =>
        client.request<StatusView>('/api/v1/statuses', { method: 'POST', json: { status: text, in_reply_to_id: to.commentId }, headers: { 'Idempotency-Key': idempotencyKey(ctx.replyId, 'inbox-reply') } }),
      );
      if (!res.body.id) throw new PermanentError('the Mastodon server answered the reply without a status id', { platformCode: 'no-id' });
      return { id: res.body.id, url: res.body.url ?? null };
    },
  };
}
