import { fail, type MetaSimState, type SimRequest } from './core';

/** Which object types have which comment edge, and whose account owns them. */
const EDGES: Record<string, { edge: readonly string[]; platform: 'instagram' | 'facebook' | 'threads'; kind: 'ig_user' | 'fb_page' | 'threads_user'; owner: string }> = {
  ig_media: { edge: ['comments'], platform: 'instagram', kind: 'ig_user', owner: 'accountId' },
  threads_media: { edge: ['replies', 'conversation'], platform: 'threads', kind: 'threads_user', owner: 'accountId' },
  fb_post: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_photo: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
  fb_video: { edge: ['comments'], platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
};

/**
 * Reading the comments of a published object (Instagram `/{ig-media-id}/comments`, Facebook
 * `/{object-id}/comments`, Threads `/{media-id}/replies` and `/conversation`), so a client
 * can check its own work. Nobody comments in the sandbox, so the list is empty; Facebook's
 * `summary=true` adds the count as Graph does. Other paths are left to the other route sets.
 */
export function commentRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (!id || !edge || extra !== undefined || req.method !== 'GET') return undefined;
  const obj = sim.objects.get(id);
  const kind = obj ? EDGES[String(obj._type)] : undefined;
  if (!obj || !kind || !kind.edge.includes(edge)) return undefined;
  sim.actingFor(req, String(obj[kind.owner]), kind.platform, kind.kind);
  const limit = Number(req.params.limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1) fail(100, 'Param limit must be a positive integer.');
  const answer: Record<string, unknown> = { data: [] };
  if (kind.platform === 'facebook' && req.params.summary === 'true') answer.summary = { order: req.params.order ?? 'ranked', total_count: 0, can_comment: true };
  return answer;
}
