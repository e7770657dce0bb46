import type { CallContext } from '../adapter';
import type { CommentsClient, RemoteComment, ReplyContext } from '../conversations';
import { PermanentError } from '../errors';
import type { AddressGuard } from '../../net/address-guard';
import { openSession, parsePostUri, postUrl, type StrongRef } from './bluesky-session';
import { createAtKey } from './create-at-key';
import { defaultPdsGuard } from './pds-access';
import { blueskyTokenRefresher } from './session';
import { createBlueskyRemover } from './remove';
import { recordKeyFor } from './tid';
import { BlueskyApiError } from './xrpc-client';

/** app.bsky.feed.defs#postView, as far as the inbox reads it. */
interface PostView {
  uri: string;
  cid: string;
  author: { did: string; handle: string; displayName?: string };
  record: { text?: string; createdAt?: string; reply?: { root?: StrongRef; parent?: StrongRef } };
  indexedAt?: string;
}

/** app.bsky.feed.defs#threadViewPost (other node kinds, notFound and blocked, have no `post`). */
interface ThreadNode {
  $type?: string;
  post?: PostView;
  replies?: ThreadNode[];
}

/** app.bsky.feed.threadgate: who may reply to a thread, and the replies its author hid. */
interface Threadgate {
  $type: string;
  post: string;
  allow?: unknown[];
  createdAt: string;
  hiddenReplies?: string[];
  [k: string]: unknown;
}

const THREADGATE = 'app.bsky.feed.threadgate';
/** The lexicon's bound on hiddenReplies. */
const MAX_HIDDEN = 300;

/** getPostThread's deepest reach (the lexicon's maximum). */
const MAX_DEPTH = 1000;

/**
 * Bluesky conversations: `app.bsky.feed.getPostThread` of our post (a tree, no paging) lists
 * the replies at every depth; a reply is a post record with `reply {root, parent}` written
 * at a record key fixed by the reply (createAtKey: a key asked before is looked up first,
 * and the PDS refuses a second record at it), so it exists once whatever restarts.
 */
export function createBlueskyComments(deps: { guard?: AddressGuard } = {}): CommentsClient {
  const guard = deps.guard ?? defaultPdsGuard;
  const refresher = blueskyTokenRefresher(guard);
  const session = (ctx: CallContext) => openSession(ctx, { guard, refresher });

  const thread = async (ctx: CallContext, uri: string, depth: number) => {
    const s = await session(ctx);
    const res = await s.call('thread lookup', false, (c) => c.query<{ thread?: ThreadNode }>('app.bsky.feed.getPostThread', { params: { uri, depth: String(depth), parentHeight: '0' } }));
    return { s, root: res.body.thread ?? null };
  };

  const remover = createBlueskyRemover(deps);

  return {
    // Our reply is a post record: deleteRecord, as a take-down deletes one.
    deleteReply: (ctx, r) => remover.deletePost(ctx, r.replyId),

    async list(ctx, postId) {
      const { s, root } = await thread(ctx, postId, MAX_DEPTH);
      const out: RemoteComment[] = [];
      const walk = (node: ThreadNode, path: string[]) => {
        for (const child of node.replies ?? []) {
          const p = child.post;
          if (!p) continue;
          const rkey = parsePostUri(p.uri)?.rkey ?? '';
          out.push({
            id: p.uri,
            inReplyTo: p.record.reply?.parent?.uri ?? path[path.length - 1] ?? null,
            thread: path,
            author: { name: p.author.displayName || null, handle: p.author.handle, url: `https://bsky.app/profile/${p.author.handle}` },
            text: typeof p.record.text === 'string' ? p.record.text : '',
            url: postUrl(p.author.handle, rkey),
            createdAt: Date.parse(p.record.createdAt ?? p.indexedAt ?? '') || ctx.clock.now(),
            own: p.author.did === s.did,
          });
          walk(child, [...path, p.uri]);
        }
      };
      if (root?.post) walk(root, [root.post.uri]);
      return out;
    },

    // The root post's author hides replies in its thread: `hiddenReplies` on the post's app.bsky.feed.threadgate (same record key), kept with any rules it has.
    async hide(ctx, to) {
      const s = await session(ctx);
      const rkey = parsePostUri(to.postId)?.rkey;
      if (!rkey) throw new PermanentError(`${to.postId} is not a post URI`, { platformCode: 'InvalidUri' });
      const gate = await s.call('threadgate lookup', false, async (c) => {
        try {
          return (await c.query<{ cid?: string; value?: Threadgate }>('com.atproto.repo.getRecord', { params: { repo: s.did, collection: THREADGATE, rkey } })).body;
        } catch (err) {
          if (err instanceof BlueskyApiError && err.error === 'RecordNotFound') return null;
          throw err;
        }
      });
      const hidden = gate?.value?.hiddenReplies ?? [];
      if (hidden.includes(to.commentId)) return;
      if (hidden.length >= MAX_HIDDEN) throw new PermanentError(`Bluesky keeps at most ${MAX_HIDDEN} hidden replies per thread; this one has that many`, { platformCode: 'TooManyHidden' });
      const record: Threadgate = { ...(gate?.value ?? { $type: THREADGATE, post: to.postId, createdAt: new Date(ctx.clock.now()).toISOString() }), hiddenReplies: [...hidden, to.commentId] };
      // swapRecord: a threadgate changed meanwhile (in the app) is refused, not overwritten; the next hide reads it again.
      await s.call('reply hiding', false, (c) => c.procedure('com.atproto.repo.putRecord', { json: { repo: s.did, collection: THREADGATE, rkey, record, ...(gate?.cid ? { swapRecord: gate.cid } : { swapRecord: null }) } }));
    },

    async reply(ctx: ReplyContext, to, text) {
      const { s, root } = await thread(ctx, to.commentId, 0);
      const parent = root?.post;
      if (!parent) throw new PermanentError(`the comment ${to.commentId} is gone (or hidden from us), so there is nothing to reply to`, { platformCode: 'NotFound' });
      const parentRef = { uri: parent.uri, cid: parent.cid };
      const rootRef = parent.record.reply?.root ?? parentRef;
      const rkey = recordKeyFor(ctx.replyId, 'comment');
      const record = async () => ({ $type: 'app.bsky.feed.post', text, createdAt: new Date(ctx.clock.now()).toISOString(), reply: { root: rootRef, parent: parentRef } });
      const ref = await createAtKey(ctx, s, rkey, record, 'reply');
      return { id: ref.uri, url: postUrl(s.handle ?? s.did, parsePostUri(ref.uri)?.rkey ?? rkey) };
    },
  };
}
