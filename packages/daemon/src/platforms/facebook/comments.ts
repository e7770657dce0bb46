import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment } from '../conversations';
import { PermanentError } from '../errors';
import { deleteGraphObject, openMetaRun, readEdge, type MetaConversationHost } from '../meta/conversation-calls';
import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { comparable, replyReadingBack } from '../shared/reply-reading-back';

/** A Graph Comment on a Page post, as far as the inbox reads it. */
interface FbComment {
  id: string;
  message?: string;
  created_time?: string;
  from?: { id?: string; name?: string };
  parent?: { id?: string };
  permalink_url?: string;
}

/**
 * Facebook Page conversations (docs/reference/platforms.md §17): `GET /{post-id}/comments`
 * with `filter=stream` (every depth, each reply naming its `parent`) and
 * `order=chronological`, with the Page token (`pages_read_engagement`). A reply is
 * `POST /{comment-id}/comments` with `message`, written as the Page
 * (`pages_manage_engagement`). Facebook has no idempotency key: a reply whose request went
 * out before is looked for (the Page, this text, under that comment) before it is sent again.
 * Hiding is `POST /{comment-id}?is_hidden=true`.
 */
export function createFacebookComments(options: MetaAdapterOptions = {}): CommentsClient {
  const host: MetaConversationHost = {
    label: 'Facebook',
    host: () => 'graph.facebook.com',
    version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
    token: (ctx) => ctx.credentials.secrets.page_token ?? requireToken(ctx, 'Facebook'),
    // Page tokens have no refresh: a dead one needs a new connection.
    refresher: () => null,
  };
  const pageOf = (ctx: CallContext) => {
    const pageId = ctx.credentials.pageId;
    if (!pageId) throw new PermanentError('No Facebook page is selected for this connection. Run `socialpub connect facebook` and pick a page.', { platformCode: 'facebook_page_not_selected' });
    return pageId;
  };

  async function list(ctx: CallContext, postId: string): Promise<RemoteComment[]> {
    const pageId = pageOf(ctx);
    const rows = await readEdge<FbComment>(openMetaRun(host, ctx, options), `${postId}/comments`, { filter: 'stream', order: 'chronological', fields: 'id,message,created_time,from{id,name},parent{id},permalink_url' });
    const parentOf = new Map(rows.map((c) => [c.id, c.parent?.id ?? postId]));
    return rows.map((c): RemoteComment => {
      const chain: string[] = [];
      for (let p: string | undefined = parentOf.get(c.id); p !== undefined && chain.length < 1000; p = p === postId ? undefined : parentOf.get(p)) chain.unshift(p);
      return {
        id: c.id,
        inReplyTo: c.parent?.id ?? postId,
        thread: chain,
        author: { name: c.from?.name ?? null, handle: c.from?.name ?? c.from?.id ?? 'unknown', url: c.from?.id ? `https://www.facebook.com/${c.from.id}` : null },
        text: c.message ?? '',
        url: c.permalink_url ?? null,
        createdAt: Date.parse(c.created_time ?? '') || ctx.clock.now(),
        own: c.from?.id === pageId,
      };
    });
  }

  return {
    list,

    async reply(ctx, to, text) {
      const find = async () => {
        const all = await list(ctx, to.postId);
        const target = all.find((c) => c.id === to.commentId);
        const want = comparable(text);
        // Facebook may put a reply to a reply under the top comment.
        const under = new Set([to.commentId, ...(target && target.inReplyTo !== to.postId && target.inReplyTo ? [target.inReplyTo] : [])]);
        const ours = all.find((c) => c.own && c.inReplyTo !== null && under.has(c.inReplyTo) && comparable(c.text) === want);
        return ours ? { id: ours.id, url: ours.url } : null;
      };
      return replyReadingBack(ctx, find, async () => {
        const res = await openMetaRun(host, ctx, options).call<{ id: string }>(`${encodeURIComponent(to.commentId)}/comments`, { method: 'POST', params: { message: text } }, { publishing: true });
        return { id: String(res.id), url: null };
      });
    },

    // Our own reply: `DELETE /{id}` (the account deletes what it wrote).
    deleteReply: (ctx, r) => deleteGraphObject(openMetaRun(host, ctx, options), r.replyId),

    async hide(ctx, to) {
      await openMetaRun(host, ctx, options).call(encodeURIComponent(to.commentId), { method: 'POST', params: { is_hidden: true } });
    },
  };
}
