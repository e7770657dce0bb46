import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment } from '../conversations';
import { deleteGraphObject, openMetaRun, readEdge, type MetaConversationHost } from '../meta/conversation-calls';
import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { comparable, replyReadingBack } from '../shared/reply-reading-back';
import { instagramTokenRefresher } from './refresh-token';

/** An IG Comment, as far as the inbox reads it. */
interface IgComment {
  id: string;
  text?: string;
  timestamp?: string;
  username?: string;
  from?: { id?: string; username?: string };
  parent_id?: string;
  replies?: { data?: IgComment[] };
}

const FIELDS = 'id,text,timestamp,username,from{id,username},parent_id';

/**
 * Instagram conversations (docs/reference/platforms.md §17): `GET /{ig-media-id}/comments`
 * with each top comment's `replies{…}` (Instagram keeps one level of replies), on
 * graph.instagram.com (Instagram Login, `instagram_business_manage_comments`) or
 * graph.facebook.com (Facebook Login, `instagram_manage_comments`). A reply is
 * `POST /{ig-comment-id}/replies` with `message` (under a reply, it lands under the top
 * comment). Instagram has no idempotency key: a reply whose request went out before is looked
 * for (our account, this text, under that comment) before it is sent again. Hiding is
 * `POST /{ig-comment-id}?hide=true`. Comments have no permalink: their url is null.
 */
export function createInstagramComments(options: MetaAdapterOptions = {}): CommentsClient {
  const viaFacebook = (ctx: CallContext) => ctx.credentials.meta.login === 'facebook';
  const host: MetaConversationHost = {
    label: 'Instagram',
    host: (ctx) => (viaFacebook(ctx) ? 'graph.facebook.com' : 'graph.instagram.com'),
    version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
    token: (ctx) => requireToken(ctx, 'Instagram'),
    refresher: (ctx) => (viaFacebook(ctx) ? null : instagramTokenRefresher),
  };

  async function list(ctx: CallContext, postId: string): Promise<RemoteComment[]> {
    const run = openMetaRun(host, ctx, options);
    const me = ctx.credentials.accountId ?? (await run.call<{ id: string }>('me', { params: { fields: 'id' } })).id;
    const top = await readEdge<IgComment>(run, `${postId}/comments`, { fields: `${FIELDS},replies{${FIELDS}}` });
    const out: RemoteComment[] = [];
    const add = (c: IgComment, parent: string, thread: string[]) => {
      const handle = c.username ?? c.from?.username ?? c.from?.id ?? 'unknown';
      out.push({
        id: c.id,
        inReplyTo: parent,
        thread,
        author: { name: null, handle, url: c.username || c.from?.username ? `https://www.instagram.com/${handle}` : null },
        text: c.text ?? '',
        url: null,
        createdAt: Date.parse(c.timestamp ?? '') || ctx.clock.now(),
        own: c.from?.id !== undefined ? c.from.id === me : false,
      });
    };
    for (const c of top) {
      add(c, postId, [postId]);
      for (const r of c.replies?.data ?? []) add(r, c.id, [postId, c.id]);
    }
    return out;
  }

  return {
    list,

    async reply(ctx, to, text) {
      const find = async () => {
        const all = await list(ctx, to.postId);
        const target = all.find((c) => c.id === to.commentId);
        // A reply to a reply is under the top comment.
        const under = target && target.inReplyTo !== to.postId ? target.inReplyTo : to.commentId;
        const want = comparable(text);
        const ours = all.find((c) => c.own && c.inReplyTo === under && comparable(c.text) === want);
        return ours ? { id: ours.id, url: null } : null;
      };
      return replyReadingBack(ctx, find, async () => {
        const res = await openMetaRun(host, ctx, options).call<{ id: string }>(`${encodeURIComponent(to.commentId)}/replies`, { method: 'POST', params: { message: text } }, { publishing: true });
        return { id: String(res.id), url: null };
      });
    },

    // Our own reply: `DELETE /{id}` (the account deletes what it wrote).
    deleteReply: (ctx, r) => deleteGraphObject(openMetaRun(host, ctx, options), r.replyId),

    async hide(ctx, to) {
      await openMetaRun(host, ctx, options).call(encodeURIComponent(to.commentId), { method: 'POST', params: { hide: true } });
    },
  };
}
