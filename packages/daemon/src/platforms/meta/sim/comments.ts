import { createHash } from 'node:crypto';
import { simReaderReply } from '../../shared/sim/sim-conversation';
import { fail, graphTime, pickFields, type MetaSimState, type SimAccount, type SimRequest } from './core';

type Owned = { platform: 'instagram' | 'facebook' | 'threads'; kind: 'ig_user' | 'fb_page' | 'threads_user'; owner: string };

/** Which object types have which comment edge, and whose account owns them. */
const EDGES: Record<string, Owned & { edge: readonly string[] }> = {
  ig_media: { edge: ['comments'], platform: 'instagram', kind: 'ig_user', owner: 'accountId' },
  threads_media: { edge: ['replies', 'conversation'], platform: 'threads', kind: 'threads_user', owner: 'accountId' },
  fb_post: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_photo: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_video: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
};

/** Longest comment message the sandbox takes (Meta documents none for Instagram, docs/reference/platforms.md §12.1.2; Facebook's is 8,000). */
const MAX_MESSAGE = 8_000;

/** A comment (Instagram, Facebook) as the simulator keeps it. */
type SimComment = {
  _type: 'comment';
  id: string;
  /** What it answers: the media/post, or (a reply) a comment. */
  parentId: string;
  /** The media or post it is under. */
  rootId: string;
  platform: 'instagram' | 'facebook';
  message: string;
  from: string;
  createdAt: number;
  hidden?: boolean;
};

/** An object by id (a Facebook video's post is kept as `post:<id>`). */
const objectOf = (sim: MetaSimState, id: string) => sim.objects.get(`post:${id}`) ?? sim.objects.get(id);

/** The sandbox reader answering a post on this platform: an account of its own, made once. */
function readerAccount(sim: MetaSimState, platform: Owned['platform'], kind: Owned['kind'], username: string, name: string): SimAccount {
  const digest = createHash('sha256').update(`meta-reader:${platform}:${username}`).digest();
  const id = `${platform === 'threads' ? 2 : platform === 'instagram' ? 1 : 3}9${(digest.readBigUInt64BE(0) % 10n ** 14n).toString().padStart(14, '0')}`;
  return sim.accounts.get(id) ?? sim.addAccount({ id, platform, kind, username, name, sandboxKey: null });
}

/**
 * A sandbox reader's comment (Threads: reply) on a root post of a sandbox account, made the
 * first time its comments are read at or after its time (sim-conversation.ts decides which
 * posts and what, by the post id), so a demo has a conversation. Made once: its id is fixed by the post's.
 */
function readerComment(sim: MetaSimState, obj: Record<string, unknown>, rule: Owned): void {
  const postId = String(obj.id);
  if (rule.platform === 'threads' && obj.replied_to) return;
  const owner = sim.accounts.get(String(obj[rule.owner]));
  if (!owner?.sandboxKey) return;
  const postedAt = Number(obj.createdAt ?? Date.parse(String(obj.timestamp ?? obj.created_time ?? '')));
  const plan = Number.isFinite(postedAt) ? simReaderReply(postId, postedAt) : null;
  if (!plan || sim.clock.now() < plan.at) return;
  const id = `${rule.platform === 'facebook' ? `${postId}_` : '17'}9${createHash('sha256').update(`meta-reader-comment:${postId}`).digest().readBigUInt64BE(0) % 10n ** 15n}`;
  if (sim.objects.has(id)) return;
  const reader = readerAccount(sim, rule.platform, rule.kind, plan.reader.username, plan.reader.name);
  if (rule.platform === 'threads') {
    sim.objects.set(id, { _type: 'threads_media', id, accountId: reader.id, text: plan.text, media_type: 'TEXT_POST', media_product_type: 'THREADS', timestamp: graphTime(plan.at), permalink: `https://www.threads.net/@${reader.username}/post/${id}`, username: reader.username, createdAt: plan.at, replied_to: { id: postId }, is_reply: true });
    return;
  }
  const c: SimComment = { _type: 'comment', id, parentId: postId, rootId: postId, platform: rule.platform, message: plan.text, from: reader.id, createdAt: plan.at };
  sim.objects.set(id, c);
}

/** A comment as Instagram's or Facebook's API shows it, with the fields asked for. */
function commentView(sim: MetaSimState, c: SimComment, fields: string | undefined, repliesOf: (id: string) => SimComment[]): Record<string, unknown> {
  const author = sim.accounts.get(c.from);
  const username = author?.username ?? `user_${c.from}`;
  const nested = /replies\{([^}]*)\}/.exec(fields ?? '')?.[1];
  const full: Record<string, unknown> =
    c.platform === 'instagram'
      ? {
          id: c.id,
          text: c.message,
          timestamp: graphTime(c.createdAt),
          username,
          from: { id: c.from, username },
          hidden: c.hidden === true,
          like_count: 0,
          media: { id: c.rootId },
          ...(c.parentId !== c.rootId ? { parent_id: c.parentId } : {}),
          ...(nested !== undefined && c.parentId === c.rootId ? { replies: { data: repliesOf(c.id).map((r) => commentView(sim, r, nested, repliesOf)) } } : {}),
        }
      : {
          id: c.id,
          message: c.message,
          created_time: graphTime(c.createdAt),
          from: { id: c.from, name: author?.name ?? username },
          is_hidden: c.hidden === true,
          can_hide: c.from !== String(objectOf(sim, c.rootId)?.pageId),
          comment_count: repliesOf(c.id).length,
          ...(c.parentId !== c.rootId ? { parent: { id: c.parentId } } : {}),
        };
  const wanted = fields ? fields.replace(/\{[^}]*\}/g, '').split(',').map((f) => f.trim()).filter(Boolean) : ['id', c.platform === 'instagram' ? 'text' : 'message', c.platform === 'instagram' ? 'timestamp' : 'created_time'];
  return pickFields(full, wanted.join(','), []);
}

/** A page of an edge's rows, Graph's cursor paging (`limit`, `after`; `paging.cursors.after`, `paging.next` while more remain). */
function page<T>(req: SimRequest, rows: T[], view: (row: T) => Record<string, unknown>): Record<string, unknown> {
  const limit = Number(req.params.limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1) fail(100, 'Param limit must be a positive integer.');
  const size = Math.min(limit, 100);
  const start = req.params.after ? Number(Buffer.from(req.params.after, 'base64url').toString()) : 0;
  if (!Number.isInteger(start) || start < 0) fail(100, 'Param after is not a cursor this edge gave.');
  const slice = rows.slice(start, start + size);
  const answer: Record<string, unknown> = { data: slice.map(view) };
  if (slice.length > 0) {
    const after = Buffer.from(String(start + slice.length)).toString('base64url');
    answer.paging = { cursors: { before: Buffer.from(String(start)).toString('base64url'), after }, ...(start + slice.length < rows.length ? { next: `${req.selfBase}/${req.host}${req.path}?after=${after}` } : {}) };
  }
  return answer;
}

/** The Threads conversation under a root post: every reply at any depth, oldest first. */
function threadsConversation(sim: MetaSimState, rootId: string, topLevelOnly: boolean): Record<string, unknown>[] {
  const all = [...sim.objects.values()].filter((o) => o._type === 'threads_media' && o.replied_to);
  const parentOf = new Map(all.map((o) => [String(o.id), String((o.replied_to as { id: string }).id)]));
  const rootOf = (id: string): string => {
    let at = id;
    for (let i = 0; i < 1000 && parentOf.has(at); i++) at = parentOf.get(at)!;
    return at;
  };
  return all.filter((o) => (topLevelOnly ? parentOf.get(String(o.id)) === rootId : rootOf(String(o.id)) === rootId)).sort((a, b) => Number(a.createdAt) - Number(b.createdAt));
}

/** A Threads reply as the conversation edges show it, `is_reply_owned_by_me` for the account asking. */
function threadsReplyView(o: Record<string, unknown>, rootId: string, me: string, fields: string | undefined): Record<string, unknown> {
  const full = { ...o, root_post: { id: rootId }, is_reply_owned_by_me: String(o.accountId) === me, hide_status: o.hidden ? 'HIDDEN' : 'NOT_HUSHED' };
  return pickFields(full, fields, ['id', 'text', 'timestamp']);
}

/**
 * Conversations under published objects (docs/reference/platforms.md §17):
 * - Instagram `GET /{ig-media-id}/comments` (top level, `replies{…}` nested when asked),
 *   `GET /{ig-comment-id}/replies`, `POST /{ig-media-id}/comments` and
 *   `POST /{ig-comment-id}/replies` with `message` (a reply to a reply attaches to its top
 *   comment), `POST /{ig-comment-id}?hide=true|false`;
 * - Facebook `GET /{object-id}/comments` (`filter=toplevel` by default, `stream` for every
 *   depth with `parent`), `GET|POST /{comment-id}/comments`, `POST /{comment-id}?is_hidden=`;
 * - Threads `GET /{media-id}/replies` (top level) and `/conversation` (every depth) with
 *   `is_reply_owned_by_me`, `POST /{reply-id}/manage_reply?hide=`.
 * Only the post's own account comments and replies through these (outside apps cannot comment
 * on another account's media); a Threads reply from any account is a post (threads.ts).
 * Reading a sandbox post's comments adds a simulated reader's on a share of posts
 * (sim-conversation.ts). `DELETE /{comment-id}` by its author or the post's owner. Other
 * paths are left to the other route sets.
 */
export function commentRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (!id || extra !== undefined) return undefined;
  const obj = objectOf(sim, id);
  if (obj?._type === 'comment') return onComment(req, sim, obj as unknown as SimComment, edge);
  if (obj?._type === 'threads_media' && edge === 'manage_reply' && req.method === 'POST') return manageThreadsReply(req, sim, obj);
  if (!edge || (req.method !== 'GET' && req.method !== 'POST')) return undefined;
  const kind = obj ? EDGES[String(obj._type)] : undefined;
  if (!obj || !kind || !kind.edge.includes(edge)) return undefined;
  if (req.method === 'POST' && edge !== 'comments') return undefined;
  const acc = sim.actingFor(req, String(obj[kind.owner]), kind.platform, kind.kind);
  const postId = String(obj.id);
  if (req.method === 'POST') return addComment(req, sim, kind.platform as 'instagram' | 'facebook', postId, postId, acc.id);
  readerComment(sim, obj, kind);
  if (kind.platform === 'threads') {
    const rows = threadsConversation(sim, postId, edge === 'replies');
    const ordered = req.params.reverse === 'true' ? rows.reverse() : rows;
    return page(req, ordered, (o) => threadsReplyView(o, postId, acc.id, req.params.fields));
  }
  const all = comments(sim, postId);
  const repliesOf = (cid: string) => all.filter((c) => c.parentId === cid);
  const stream = kind.platform === 'facebook' && req.params.filter === 'stream';
  // Instagram lists newest first; Facebook as `order` asks (chronological by default here).
  const top = all.filter((c) => stream || c.parentId === postId);
  const rows = kind.platform === 'instagram' || req.params.order === 'reverse_chronological' ? [...top].reverse() : top;
  const answer = page(req, rows, (c) => commentView(sim, c, req.params.fields, repliesOf));
  if (kind.platform === 'facebook' && req.params.summary === 'true') answer.summary = { order: req.params.order ?? 'ranked', total_count: top.length, can_comment: true };
  return answer;
}

/** Every comment under a post, at every depth, oldest first. */
function comments(sim: MetaSimState, rootId: string): SimComment[] {
  return ([...sim.objects.values()].filter((o) => o._type === 'comment' && (o as unknown as SimComment).rootId === rootId) as unknown as SimComment[]).sort((a, b) => a.createdAt - b.createdAt);
}

function addComment(req: SimRequest, sim: MetaSimState, platform: 'instagram' | 'facebook', rootId: string, parentId: string, from: string): { id: string } {
  const message = req.params.message;
  if (message === undefined || message.trim() === '') fail(100, 'The parameter message is required.');
  if (message.length > MAX_MESSAGE) fail(100, `Param message must be at most ${MAX_MESSAGE} characters long.`);
  const commentId = platform === 'facebook' ? `${rootId}_${sim.newId('1')}` : sim.newId('17');
  const now = sim.clock.now();
  const c: SimComment = { _type: 'comment', id: commentId, parentId, rootId, platform, message, from, createdAt: now };
  sim.objects.set(commentId, c);
  sim.recordPost({ platform, accountId: from, postId: commentId, postUrl: null, kind: parentId === rootId ? 'comment' : 'reply', body: { on: parentId, message } });
  return { id: commentId };
}

/** Calls on a comment: its replies (read, or one added by the post's account), hiding it, deleting it, reading it. */
function onComment(req: SimRequest, sim: MetaSimState, c: SimComment, edge: string | undefined): unknown {
  const root = objectOf(sim, c.rootId);
  const rule = root ? EDGES[String(root._type)] : undefined;
  if (!root || !rule) fail(100, `Object with ID '${c.id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33 });
  const replyEdge = c.platform === 'instagram' ? 'replies' : 'comments';
  if (req.method === 'DELETE' && !edge) {
    // Its author, or the post's owner, may delete it.
    const tok = sim.authenticate(req, c.platform, String(root[rule.owner]));
    const mayDelete = tok.accountId === c.from || sim.isSandboxToken(tok) || sim.owns(tok, sim.accounts.get(String(root[rule.owner]))!);
    if (!mayDelete) fail(10, 'Application does not have permission for this action');
    for (const r of comments(sim, c.rootId)) if (r.parentId === c.id) sim.objects.delete(r.id);
    sim.objects.delete(c.id);
    sim.removePost(c.platform, c.id);
    return { success: true };
  }
  const acc = sim.actingFor(req, String(root[rule.owner]), rule.platform, rule.kind);
  if (edge === replyEdge && req.method === 'POST') {
    if (c.platform === 'instagram' && c.hidden) fail(100, 'Cannot reply to a hidden comment.');
    // Instagram keeps one level of replies: a reply to a reply goes under its top comment.
    const parent = c.platform === 'instagram' && c.parentId !== c.rootId ? c.parentId : c.id;
    return addComment(req, sim, c.platform, c.rootId, parent, acc.id);
  }
  if (edge === replyEdge && req.method === 'GET') {
    const all = comments(sim, c.rootId);
    return page(req, all.filter((r) => r.parentId === c.id), (r) => commentView(sim, r, req.params.fields, (x) => all.filter((y) => y.parentId === x)));
  }
  if (edge) return undefined;
  if (req.method === 'GET') return commentView(sim, c, req.params.fields, (x) => comments(sim, c.rootId).filter((y) => y.parentId === x));
  if (req.method === 'POST') {
    const flag = c.platform === 'instagram' ? req.params.hide : req.params.is_hidden;
    if (flag === undefined) fail(100, `The parameter ${c.platform === 'instagram' ? 'hide' : 'is_hidden'} is required.`);
    if (c.platform === 'facebook' && c.from === acc.id) fail(100, "A Page's own comment cannot be hidden.");
    sim.objects.set(c.id, { ...c, hidden: flag === 'true' });
    return { success: true };
  }
  return undefined;
}

/** Threads `POST /{reply-id}/manage_reply?hide=true|false`: the root post's account hides a reply to it. */
function manageThreadsReply(req: SimRequest, sim: MetaSimState, reply: Record<string, unknown> & { _type: string }): unknown {
  if (!reply.replied_to) fail(100, 'Only replies can be hidden.');
  let rootId = String((reply.replied_to as { id: string }).id);
  for (let i = 0; i < 1000; i++) {
    const up = sim.objects.get(rootId)?.replied_to as { id: string } | undefined;
    if (!up) break;
    rootId = up.id;
  }
  const root = sim.objects.get(rootId);
  if (!root) fail(100, `Object with ID '${rootId}' does not exist.`, { subcode: 33 });
  sim.actingFor(req, String(root.accountId), 'threads', 'threads_user');
  if (req.params.hide === undefined) fail(100, 'The parameter hide is required.');
  sim.objects.set(String(reply.id), { ...reply, hidden: req.params.hide === 'true' });
  return { success: true };
}
