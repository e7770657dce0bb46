import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { simReaderReply } from '../../shared/sim/sim-conversation';
import type { YouTubeRouteDeps } from './thumbnails-playlists';

/** What the comment routes need besides the simulator's common pieces. */
export interface CommentRouteDeps extends YouTubeRouteDeps {
  /** Whether the token carries a scope (sandbox tokens carry all). */
  hasScope(c: Context, scope: string): boolean;
  /** A channel's title (the comment's author name). */
  channelTitle(id: string): string;
}

/** A comment as the simulator keeps it: top level (`parentId` null) or a reply to one. */
interface SimComment {
  id: string;
  videoId: string;
  parentId: string | null;
  authorChannelId: string;
  authorName: string;
  text: string;
  publishedAt: number;
  moderationStatus: 'published' | 'heldForReview' | 'rejected';
}

const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';

/**
 * YouTube comments (docs/reference/platforms.md §12.6.5, §17): commentThreads.insert (a
 * top-level comment) and commentThreads.list by `videoId` (part `snippet,replies`, `order`,
 * `maxResults` up to 100, `pageToken`), comments.list by `parentId`, comments.insert (a
 * reply: `snippet.parentId` a top-level comment), comments.setModerationStatus (the video's
 * owner: `heldForReview`, `published`, `rejected`, the last two hiding it from everyone
 * else) and comments.delete (the author's own). Any channel may comment on a public or
 * unlisted video; a reader of the sandbox answers a share of videos (sim-conversation.ts).
 */
export function commentRoutes(d: CommentRouteDeps): void {
  const { api, clock, log, state, gError } = d;
  const comments = state.map<SimComment>('comments');
  const ts = (ms: number) => new Date(ms).toISOString();

  function resource(c: SimComment) {
    const video = d.video(c.videoId);
    return {
      kind: 'youtube#comment',
      etag: createHash('sha1').update(JSON.stringify(c)).digest('base64url'),
      id: c.id,
      snippet: {
        channelId: video?.channelId ?? '',
        videoId: c.videoId,
        textDisplay: c.text,
        textOriginal: c.text,
        ...(c.parentId ? { parentId: c.parentId } : {}),
        authorDisplayName: c.authorName,
        authorChannelUrl: `http://www.youtube.com/channel/${c.authorChannelId}`,
        authorChannelId: { value: c.authorChannelId },
        canRate: true,
        viewerRating: 'none',
        likeCount: 0,
        moderationStatus: c.moderationStatus,
        publishedAt: ts(c.publishedAt),
        updatedAt: ts(c.publishedAt),
      },
    };
  }

  const repliesOf = (id: string, viewer: string | null) => [...comments.values()].filter((r) => r.parentId === id && visible(r, viewer)).sort((a, b) => a.publishedAt - b.publishedAt);
  /** Held and rejected comments are seen by their author and the video's owner only. */
  const visible = (c: SimComment, viewer: string | null) => c.moderationStatus === 'published' || viewer === c.authorChannelId || viewer === d.video(c.videoId)?.channelId;

  function thread(c: SimComment, viewer: string | null, parts: string[]) {
    const replies = repliesOf(c.id, viewer);
    const video = d.video(c.videoId);
    return {
      kind: 'youtube#commentThread',
      etag: createHash('sha1').update(c.id + replies.length).digest('base64url'),
      id: c.id,
      ...(parts.includes('snippet') ? { snippet: { channelId: video?.channelId ?? '', videoId: c.videoId, topLevelComment: resource(c), canReply: true, totalReplyCount: replies.length, isPublic: true } } : {}),
      // Google includes some of the replies (not necessarily all): five here; comments.list by parentId has the rest.
      ...(parts.includes('replies') && replies.length > 0 ? { replies: { comments: replies.slice(0, 5).map(resource) } } : {}),
    };
  }

  /** A page of a list (`maxResults` 1..100, default 20; `pageToken` an offset this list gave). */
  function page<T>(c: Context, rows: T[], kind: string, view: (row: T) => unknown): Response {
    const max = Number(c.req.query('maxResults') ?? 20);
    if (!Number.isInteger(max) || max < 1 || max > 100) return gError(c, 400, 'invalidParameter', 'maxResults must be between 1 and 100.', 'youtube.parameter');
    const token = c.req.query('pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) return gError(c, 400, 'invalidPageToken', 'The pageToken parameter specifies an invalid page token.', 'youtube.parameter');
    const slice = rows.slice(start, start + max);
    const next = start + max < rows.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
    return c.json({ kind, etag: randomBytes(12).toString('base64url'), ...(next ? { nextPageToken: next } : {}), pageInfo: { totalResults: rows.length, resultsPerPage: max }, items: slice.map(view) });
  }

  /** The sandbox reader's comment on a video of a sandbox connection, made when its comments are first read at or after its time. */
  function readerComment(videoId: string): void {
    const v = d.video(videoId);
    const publishedAt = Date.parse(String((v?.video.snippet as { publishedAt?: string } | undefined)?.publishedAt ?? ''));
    const plan = Number.isFinite(publishedAt) ? simReaderReply(videoId, publishedAt) : null;
    if (!plan || clock.now() < plan.at) return;
    const id = `Ugr${createHash('sha256').update(`yt-reader:${videoId}`).digest('base64url').slice(0, 20)}`;
    if (comments.has(id)) return;
    const channel = `UCreader${createHash('sha256').update(plan.reader.username).digest('hex').slice(0, 16)}`;
    comments.set(id, { id, videoId, parentId: null, authorChannelId: channel, authorName: `@${plan.reader.username}`, text: plan.text, publishedAt: plan.at, moderationStatus: 'published' });
  }

  const writer = (c: Context): string | Response => {
    const channelId = d.authenticate(c);
    if (!channelId) return d.unauthenticated(c);
    if (!d.hasScope(c, FORCE_SSL)) return gError(c, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    return channelId;
  };

  function add(videoId: string, parentId: string | null, channelId: string, text: string): SimComment {
    const id = parentId ? `${parentId}.${randomBytes(9).toString('base64url')}` : `Ug${randomBytes(12).toString('base64url')}`;
    const made: SimComment = { id, videoId, parentId, authorChannelId: channelId, authorName: d.channelTitle(channelId), text, publishedAt: clock.now(), moderationStatus: 'published' };
    state.atomically(() => {
      comments.set(id, made);
      log.addPost({ platform: 'youtube', accountId: channelId, postId: id, postUrl: `https://www.youtube.com/watch?v=${videoId}&lc=${id}`, kind: parentId ? 'reply' : 'comment', body: { on: parentId ?? videoId, text }, createdAt: clock.now() });
    });
    return made;
  }

  const textOf = (c: Context, text: unknown, domain: string): string | Response => {
    if (typeof text !== 'string' || text.trim() === '') return gError(c, 400, 'commentTextRequired', 'The comment must contain text.', domain);
    if (text.length > 10_000) return gError(c, 400, 'commentTextTooLong', 'The comment is too long.', domain);
    return text;
  };

  // commentThreads.insert: part=snippet, a top-level comment on an existing video the caller can see; needs youtube.force-ssl.
  api.post('/youtube/v3/commentThreads', async (c) => {
    const channelId = writer(c);
    if (channelId instanceof Response) return channelId;
    if (c.req.query('part') !== 'snippet') return gError(c, 400, 'invalidPart', "The part parameter must be 'snippet'.", 'youtube.parameter', { location: 'part', locationType: 'parameter' });
    const body = (await c.req.json().catch(() => null)) as { snippet?: { channelId?: unknown; videoId?: unknown; topLevelComment?: { snippet?: { textOriginal?: unknown } } } } | null;
    const sn = body?.snippet;
    if (!sn || typeof sn.videoId !== 'string') return gError(c, 400, 'channelOrVideoIdMissing', 'The comment thread must be linked to a video.', 'youtube.commentThread');
    const text = textOf(c, sn.topLevelComment?.snippet?.textOriginal, 'youtube.commentThread');
    if (text instanceof Response) return text;
    if (sn.channelId !== undefined && sn.channelId !== channelId) return gError(c, 400, 'invalidCommentThreadMetadata', 'The snippet.channelId must be the channel of the request.', 'youtube.commentThread');
    const v = d.video(sn.videoId);
    if (!v) return gError(c, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread');
    // A private video (also a scheduled one) takes no comments, not even its owner's: observed as 403 forbidden (§12.6.5).
    if ((v.video.status as { privacyStatus?: string }).privacyStatus === 'private') return gError(c, 403, 'forbidden', 'The comment thread could not be created due to insufficient permissions.', 'youtube.commentThread');
    return c.json(thread(add(sn.videoId, null, channelId, text), channelId, ['snippet']));
  });

  // commentThreads.list by videoId (1 unit).
  api.get('/youtube/v3/commentThreads', (c) => {
    const viewer = d.authenticate(c);
    if (!viewer) return d.unauthenticated(c);
    const parts = (c.req.queries('part') ?? []).join(',').split(',').filter(Boolean);
    if (parts.length === 0 || parts.some((p) => !['id', 'snippet', 'replies'].includes(p))) return gError(c, 400, 'invalidPart', 'The part parameter must be one or more of id, snippet, replies.', 'youtube.parameter');
    const videoId = c.req.query('videoId');
    if (!videoId) return gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id.', 'youtube.parameter');
    if (!d.video(videoId)) return gError(c, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread');
    state.atomically(() => readerComment(videoId));
    const top = [...comments.values()].filter((x) => x.videoId === videoId && x.parentId === null && visible(x, viewer)).sort((a, b) => b.publishedAt - a.publishedAt);
    return page(c, top, 'youtube#commentThreadListResponse', (x) => thread(x, viewer, parts));
  });

  // comments.list by parentId (1 unit): the replies to a top-level comment, oldest first.
  api.get('/youtube/v3/comments', (c) => {
    const viewer = d.authenticate(c);
    if (!viewer) return d.unauthenticated(c);
    const parentId = c.req.query('parentId');
    const ids = c.req.query('id');
    if (ids) return c.json({ kind: 'youtube#commentListResponse', items: ids.split(',').flatMap((id) => { const x = comments.get(id); return x && visible(x, viewer) ? [resource(x)] : []; }) });
    if (!parentId) return gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: parentId, id.', 'youtube.parameter');
    if (!comments.has(parentId)) return gError(c, 404, 'commentNotFound', 'The comment identified by the parentId parameter could not be found.', 'youtube.comment');
    return page(c, repliesOf(parentId, viewer), 'youtube#commentListResponse', resource);
  });

  // comments.insert: a reply to a top-level comment (50 units).
  api.post('/youtube/v3/comments', async (c) => {
    const channelId = writer(c);
    if (channelId instanceof Response) return channelId;
    if (c.req.query('part') !== 'snippet') return gError(c, 400, 'invalidPart', "The part parameter must be 'snippet'.", 'youtube.parameter');
    const body = (await c.req.json().catch(() => null)) as { snippet?: { parentId?: unknown; textOriginal?: unknown } } | null;
    const parentId = body?.snippet?.parentId;
    if (typeof parentId !== 'string') return gError(c, 400, 'parentIdMissing', 'No parent ID was specified for the comment.', 'youtube.comment');
    const parent = comments.get(parentId);
    if (!parent || !visible(parent, channelId)) return gError(c, 404, 'commentNotFound', 'The comment identified by the parentId parameter could not be found.', 'youtube.comment');
    if (parent.parentId !== null) return gError(c, 400, 'operationNotSupported', 'Replies can only be made to top-level comments.', 'youtube.comment');
    const text = textOf(c, body?.snippet?.textOriginal, 'youtube.comment');
    if (text instanceof Response) return text;
    return c.json(resource(add(parent.videoId, parentId, channelId, text)));
  });

  // comments.setModerationStatus: the video's owner only; 204.
  api.post('/youtube/v3/comments/setModerationStatus', (c) => {
    const channelId = writer(c);
    if (channelId instanceof Response) return channelId;
    const status = c.req.query('moderationStatus');
    if (status !== 'heldForReview' && status !== 'published' && status !== 'rejected') return gError(c, 400, 'invalidModerationStatus', 'The moderationStatus must be heldForReview, published or rejected.', 'youtube.comment');
    const ids = (c.req.query('id') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return gError(c, 400, 'missingRequiredParameter', 'No value specified for required parameter: id', 'youtube.parameter');
    for (const id of ids) {
      const x = comments.get(id);
      if (!x) return gError(c, 404, 'commentNotFound', `The comment ${id} could not be found.`, 'youtube.comment');
      if (d.video(x.videoId)?.channelId !== channelId) return gError(c, 403, 'forbidden', 'The comment could not be moderated due to insufficient permissions.', 'youtube.comment');
    }
    state.atomically(() => {
      for (const id of ids) comments.set(id, { ...comments.get(id)!, moderationStatus: status });
    });
    return c.body(null, 204);
  });

  // comments.delete: the author's own comment; 204.
  api.delete('/youtube/v3/comments', (c) => {
    const channelId = writer(c);
    if (channelId instanceof Response) return channelId;
    const id = c.req.query('id') ?? '';
    const x = comments.get(id);
    if (!x) return gError(c, 404, 'commentNotFound', 'The comment could not be found.', 'youtube.comment');
    if (x.authorChannelId !== channelId) return gError(c, 403, 'forbidden', 'The comment could not be deleted due to insufficient permissions.', 'youtube.comment');
    state.atomically(() => {
      for (const r of [...comments.values()].filter((r) => r.parentId === id)) comments.delete(r.id);
      comments.delete(id);
      log.removePost('youtube', id, clock.now());
    });
    return c.body(null, 204);
  });
}

/** Whether a YouTube token carries a scope: sandbox tokens all of them. */
export function sandboxOrScope(token: string, scopes: string | undefined, scope: string): boolean {
  return isSandboxToken(token) || (scopes ?? '').split(/\s+/).includes(scope);
}
