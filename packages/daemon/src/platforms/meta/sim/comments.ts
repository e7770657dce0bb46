import { fail, type MetaSimState, type SimRequest } from './core';

/** Which object types have which comment edge, and whose account owns them. */
const EDGES: Record<string, { edge: readonly string[]; platform: 'instagram' | 'facebook' | 'threads'; kind: 'ig_user' | 'fb_page' | 'threads_user'; owner: string }> = {
  ig_media: { edge: ['comments'], platform: 'instagram', kind: 'ig_user', owner: 'accountId' },
  threads_media: { edge: ['replies', 'conversation'], platform: 'threads', kind: 'threads_user', owner: 'accountId' },
  fb_post: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_photo: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_video: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
};

/** Longest comment message the sandbox takes (Meta documents none for Instagram, docs/reference/platforms.md §12.1.2; Facebook's is 8,000). */
const MAX_MESSAGE = 8_000;

/**
 * Comments on a published object: creating one (Instagram `POST /{ig-media-id}/comments`,
 * Facebook `POST /{object-id}/comments`, both with `message`; docs/reference/platforms.md
 * §12.1.2, §12.2.3) and reading them back (the same edges, Threads `/{media-id}/replies` and
 * `/conversation`, which list the account's own replies). Facebook's `summary=true` adds the
 * count as Graph does. Other paths are left to the other route sets.
 */
export function commentRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (!id || !edge || extra !== undefined || (req.method !== 'GET' && req.method !== 'POST')) return undefined;
  const obj = sim.objects.get(id);
  const kind = obj ? EDGES[String(obj._type)] : undefined;
  if (!obj || !kind || !kind.edge.includes(edge)) return undefined;
  if (req.method === 'POST' && edge !== 'comments') return undefined;
  const acc = sim.actingFor(req, String(obj[kind.owner]), kind.platform, kind.kind);
  if (req.method === 'POST') {
    const message = req.params.message;
    if (message === undefined || message.trim() === '') fail(100, 'The parameter message is required.');
    if (message.length > MAX_MESSAGE) fail(100, `Param message must be at most ${MAX_MESSAGE} characters long.`);
    const commentId = kind.platform === 'facebook' ? `${id}_${sim.newId('1')}` : sim.newId('17');
    const now = sim.clock.now();
    sim.objects.set(commentId, { _type: 'comment', id: commentId, parentId: id, message, from: acc.id, createdAt: now });
    sim.recordPost({ platform: kind.platform, accountId: acc.id, postId: commentId, postUrl: null, kind: 'comment', body: { on: id, message } });
    return { id: commentId };
  }
  const limit = Number(req.params.limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1) fail(100, 'Param limit must be a positive integer.');
  const children = [...sim.objects.values()].filter((o) =>
    kind.platform === 'threads' ? o._type === 'threads_media' && (o.replied_to as { id?: string } | undefined)?.id === id : o._type === 'comment' && o.parentId === id,
  );
  const data = children.slice(0, limit).map((o) =>
    kind.platform === 'threads' ? { id: o.id, text: o.text, timestamp: o.timestamp, permalink: o.permalink } : { id: o.id, text: o.message, timestamp: new Date(Number(o.createdAt)).toISOString().replace('Z', '+0000') },
  );
  const answer: Record<string, unknown> = { data };
  if (kind.platform === 'facebook' && req.params.summary === 'true') answer.summary = { order: req.params.order ?? 'ranked', total_count: children.length, can_comment: true };
  return answer;
}
