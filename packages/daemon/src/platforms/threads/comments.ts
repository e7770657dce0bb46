import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment } from '../conversations';
import { PermanentError, RetryableError } from '../errors';
import { deleteGraphObject, openMetaRun, readEdge, type MetaConversationHost } from '../meta/conversation-calls';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { comparable } from '../shared/reply-reading-back';
import { threadsTokenRefresher } from './refresh-token';

/** A Threads reply in a conversation, as far as the inbox reads it. */
interface ThreadsReply {
  id: string;
  text?: string;
  username?: string;
  timestamp?: string;
  permalink?: string;
  replied_to?: { id?: string };
  is_reply_owned_by_me?: boolean;
}

/** What a reply keeps in its checkpoint: its container (publishable once), made before it is published. */
interface ReplyCheckpoint {
  containerId?: string;
}

/**
 * Threads conversations (docs/reference/platforms.md §17): `GET /{media-id}/conversation`
 * (every depth, `threads_read_replies`), each reply's parent its `replied_to`, ours marked
 * `is_reply_owned_by_me`. A reply is a text container with `reply_to_id`
 * (`POST /me/threads`), kept in the reply's checkpoint before `POST /me/threads_publish`
 * publishes it: a container is published at most once, so a reply whose answer was lost is
 * found by the container's `status` (PUBLISHED: read back from the conversation) and never made
 * twice. Hiding is `POST /{reply-id}/manage_reply?hide=true` (`threads_manage_replies`).
 */
export function createThreadsComments(options: MetaAdapterOptions = {}): CommentsClient {
  const host: MetaConversationHost = {
    label: 'Threads',
    host: () => 'graph.threads.net',
    version: options.threadsVersion ?? 'v1.0',
    tokenIn: 'param',
    token: (ctx) => requireToken(ctx, 'Threads'),
    refresher: () => threadsTokenRefresher,
  };

  async function list(ctx: CallContext, postId: string): Promise<RemoteComment[]> {
    const rows = await readEdge<ThreadsReply>(openMetaRun(host, ctx, options), `${postId}/conversation`, { fields: 'id,text,username,timestamp,permalink,replied_to,is_reply_owned_by_me', reverse: false });
    const parentOf = new Map(rows.map((r) => [r.id, r.replied_to?.id ?? postId]));
    return rows.map((r): RemoteComment => {
      const chain: string[] = [];
      for (let p: string | undefined = parentOf.get(r.id); p !== undefined && chain.length < 1000; p = p === postId ? undefined : parentOf.get(p)) chain.unshift(p);
      return {
        id: r.id,
        inReplyTo: r.replied_to?.id ?? postId,
        thread: chain,
        author: { name: null, handle: r.username ?? 'unknown', url: r.username ? `https://www.threads.net/@${r.username}` : null },
        text: r.text ?? '',
        url: r.permalink ?? null,
        createdAt: Date.parse(r.timestamp ?? '') || ctx.clock.now(),
        own: r.is_reply_owned_by_me === true,
      };
    });
  }

  return {
    list,

    async reply(ctx, to, text) {
      const run = openMetaRun(host, ctx, options);
      const me = ctx.credentials.accountId ?? 'me';
      const cp = ctx.checkpoint.data as ReplyCheckpoint;
      let containerId = cp.containerId;
      if (containerId) {
        const st = await run.call<{ status?: string; error_message?: string }>(encodeURIComponent(containerId), { params: { fields: 'status,error_message' } });
        if (st.status === 'PUBLISHED') {
          const want = comparable(text);
          const ours = (await list(ctx, to.postId)).find((c) => c.own && c.inReplyTo === to.commentId && comparable(c.text) === want);
          if (ours) return { id: ours.id, url: ours.url };
          throw new RetryableError('Threads published the reply but does not list it yet; it is read back on the next try');
        }
        if (st.status === 'ERROR') throw new PermanentError(`Threads could not make the reply: ${st.error_message ?? 'its container ended in ERROR'}`, { platformCode: 'container_error' });
        if (st.status === 'IN_PROGRESS') throw new RetryableError('Threads is still processing the reply; it is published when ready');
        // EXPIRED: never published (a published container says PUBLISHED); a new one is made.
        if (st.status === 'EXPIRED') containerId = undefined;
      }
      if (!containerId) {
        const made = await run.call<{ id: string }>(`${me}/threads`, { method: 'POST', params: { media_type: 'TEXT', text, reply_to_id: to.commentId } });
        containerId = String(made.id);
        await ctx.checkpoint.save({ containerId });
      }
      const res = await run.call<{ id: string }>(`${me}/threads_publish`, { method: 'POST', params: { creation_id: containerId } }, { publishing: true });
      const id = String(res.id);
      const media = await run.call<{ permalink?: string }>(encodeURIComponent(id), { params: { fields: 'permalink' } });
      return { id, url: media.permalink ?? null };
    },

    // Our own reply: `DELETE /{id}` (the account deletes what it wrote).
    deleteReply: (ctx, r) => deleteGraphObject(openMetaRun(host, ctx, options), r.replyId),

    async hide(ctx, to) {
      await openMetaRun(host, ctx, options).call(`${encodeURIComponent(to.commentId)}/manage_reply`, { method: 'POST', params: { hide: true } });
    },
  };
}
