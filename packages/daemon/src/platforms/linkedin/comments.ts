import type { Got } from 'got';
import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment } from '../conversations';
import { PermanentError } from '../errors';
import { comparable, replyReadingBack } from '../shared/reply-reading-back';
import type { LinkedinVersions } from './api-version';
import { LinkedinApiError } from './linkedin-client';
import { encodeUrn, linkedinSession, postUrl, type LinkedinSession } from './linkedin-session';

/** Pages of 100 read per listing at most. */
const MAX_PAGES = 10;

/** A socialActions comment, as far as the inbox reads it. */
interface LiComment {
  id?: string;
  commentUrn?: string;
  $URN?: string;
  actor?: string;
  message?: { text?: string };
  created?: { time?: number };
  parentComment?: string;
  commentsSummary?: { totalFirstLevelComments?: number };
}

const urnOf = (c: LiComment) => c.commentUrn ?? c.$URN ?? c.id ?? '';

/**
 * LinkedIn conversations (docs/reference/platforms.md §17): `GET
 * /rest/socialActions/{post urn}/comments` (`start`, `count`) lists a post's comments and the
 * same on a comment's URN its replies (one level), read where `commentsSummary` says there are
 * some (or does not say). A reply is `POST /rest/socialActions/{comment urn}/comments`
 * `{actor, object, message: {text}, parentComment}` with the post's author as the actor (read
 * from `GET /rest/posts/{urn}`: the member or the organization that published it). LinkedIn
 * has no idempotency key: a reply whose request went out before is looked for (that actor,
 * this text, under the comment) before it is sent again. LinkedIn offers no hiding of others'
 * comments. Authors are URNs (names need restricted profile access): the handle is the URN.
 */
export function createLinkedinComments(deps: { versions: LinkedinVersions; http?: Got; requestTimeoutMs?: number }): CommentsClient {
  const authorOf = async (s: LinkedinSession, postId: string) => {
    const post = await s.call('post lookup', false, (c) => c.request<{ author?: string }>(`/rest/posts/${encodeUrn(postId)}`, { method: 'GET' }));
    if (!post.body.author) throw new PermanentError(`LinkedIn answered the post ${postId} without its author`, { platformCode: 'no-author' });
    return post.body.author;
  };

  async function under(s: LinkedinSession, urn: string): Promise<LiComment[]> {
    const out: LiComment[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await s.call('comments lookup', false, (c) => c.request<{ elements?: LiComment[]; paging?: { total?: number } }>(`/rest/socialActions/${encodeUrn(urn)}/comments`, { method: 'GET', query: { start: String(page * 100), count: '100' } }));
      const got = res.body.elements ?? [];
      out.push(...got);
      if (got.length < 100 || (res.body.paging?.total !== undefined && out.length >= res.body.paging.total)) break;
    }
    return out;
  }

  function remote(c: LiComment, postId: string, parent: string, thread: string[], author: string, now: number): RemoteComment {
    const urn = urnOf(c);
    return {
      id: urn,
      inReplyTo: parent,
      thread,
      author: { name: null, handle: c.actor ?? 'unknown', url: null },
      text: c.message?.text ?? '',
      url: `${postUrl(postId)}?commentUrn=${encodeUrn(urn)}`,
      createdAt: c.created?.time ?? now,
      own: c.actor === author,
    };
  }

  return {
    // docs/reference/platforms.md §12 (LinkedIn comments): at most 1,250 characters, where a post holds 3,000.
    replyMaxChars: 1250,

    async list(ctx: CallContext, postId) {
      const s = await linkedinSession(ctx, deps);
      const author = await authorOf(s, postId);
      const out: RemoteComment[] = [];
      for (const c of await under(s, postId)) {
        out.push(remote(c, postId, postId, [postId], author, ctx.clock.now()));
        if (c.commentsSummary?.totalFirstLevelComments === 0) continue;
        for (const r of await under(s, urnOf(c))) out.push(remote(r, postId, urnOf(c), [postId, urnOf(c)], author, ctx.clock.now()));
      }
      return out;
    },

    // The actor's own comment: DELETE …/comments/{id}?actor= (204); one LinkedIn no longer has (404) is gone.
    async deleteReply(ctx, r) {
      const s = await linkedinSession(ctx, deps);
      const actor = await authorOf(s, r.postId);
      const id = /,(\d+)\)$/.exec(r.replyId)?.[1] ?? r.replyId;
      try {
        await s.call('reply deletion', false, (c) => c.request(`/rest/socialActions/${encodeUrn(r.postId)}/comments/${encodeURIComponent(id)}`, { method: 'DELETE', query: { actor }, headers: { 'x-restli-method': 'DELETE' } }));
        return 'deleted';
      } catch (err) {
        let e: unknown = err;
        for (let i = 0; i < 3 && e; i++, e = (e as { cause?: unknown }).cause) if (e instanceof LinkedinApiError && e.status === 404) return 'already_gone';
        throw err;
      }
    },

    async reply(ctx, to, text) {
      const s = await linkedinSession(ctx, deps);
      const author = await authorOf(s, to.postId);
      // Replies are one level deep: a reply to a reply goes under its top comment.
      const all = await under(s, to.postId);
      const top = all.some((c) => urnOf(c) === to.commentId) ? to.commentId : ((await Promise.all(all.map(async (c) => ((await under(s, urnOf(c))).some((r) => urnOf(r) === to.commentId) ? urnOf(c) : null)))).find((x) => x !== null) ?? to.commentId);
      const find = async () => {
        const want = comparable(text);
        const ours = (await under(s, top)).find((r) => r.actor === author && comparable(r.message?.text ?? '') === want);
        return ours ? { id: urnOf(ours), url: `${postUrl(to.postId)}?commentUrn=${encodeUrn(urnOf(ours))}` } : null;
      };
      return replyReadingBack(ctx, find, async () => {
        const res = await s.call('reply', true, (c) =>
          c.request<LiComment>(`/rest/socialActions/${encodeUrn(top)}/comments`, { method: 'POST', json: { actor: author, object: to.postId, message: { text }, parentComment: top } }),
        );
        const urn = res.headers['x-restli-id'] ?? urnOf(res.body);
        const id = Array.isArray(urn) ? urn[0] : urn;
        if (!id) throw new PermanentError('LinkedIn answered the reply without its URN', { platformCode: 'no-id' });
        return { id, url: `${postUrl(to.postId)}?commentUrn=${encodeUrn(id)}` };
      });
    },
  };
}
