import { DELETED, fail, type MetaSimState, type SimRequest } from './core';

/** The objects a DELETE /{id} removes, by type: the platform, the owner field, and the post id sandbox_posts knows it by. */
const DELETABLE: Record<string, { platform: 'instagram' | 'facebook' | 'threads'; kind: 'ig_user' | 'fb_page' | 'threads_user'; owner: string }> = {
  ig_media: { platform: 'instagram', kind: 'ig_user', owner: 'accountId' },
  threads_media: { platform: 'threads', kind: 'threads_user', owner: 'accountId' },
  fb_post: { platform: 'facebook', kind: 'fb_page', owner: 'pageId' },
};

/** Which host serves which platform's deletions. */
const HOST_PLATFORM: Record<string, 'instagram' | 'facebook' | 'threads'> = {
  'graph.threads.net': 'threads',
  'graph.threads.com': 'threads',
  'graph.instagram.com': 'instagram',
};

/**
 * Deleting a published object (docs/reference/platforms.md §12.1.3, §12.2.4, §12.4.2):
 * - Facebook `DELETE /{page_post_id}` -> `{"success":true}`;
 * - Instagram `DELETE /{ig-media-id}` on graph.facebook.com (Facebook Login only) ->
 *   `{"success":true,"deleted_id":…}`; a carousel by its album id; on graph.instagram.com
 *   (Instagram Login) the call is refused as an unsupported delete request;
 * - Threads `DELETE /{threads-media-id}` -> `{"success":true,"deleted_id":…}`.
 * A deleted object is gone from GET /{id} and the edges; deleting it again, or an unknown
 * id, is Graph's "does not exist" (code 100, subcode 33). A body on DELETE is accepted
 * (facebook-nodejs-business-sdk sends `{}`, §12.7). Other paths are left to the other route sets.
 */
export function deletionRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, extra] = req.segments;
  if (req.method !== 'DELETE' || !id || extra !== undefined) return undefined;
  // A Facebook video's post is kept as `post:<id>` beside the video object of the same id.
  const key = sim.objects.has(`post:${id}`) ? `post:${id}` : id;
  const obj = sim.objects.get(key);
  const rule = obj ? DELETABLE[String(obj._type)] : undefined;
  const hostPlatform = HOST_PLATFORM[req.host];
  if (!obj || !rule || (hostPlatform && hostPlatform !== rule.platform) || (!hostPlatform && rule.platform === 'threads')) {
    fail(100, `Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33 });
  }
  if (req.host === 'graph.instagram.com') {
    fail(100, `Unsupported delete request. Object with ID '${id}' does not support this operation (deleting Instagram media needs Facebook Login: graph.facebook.com).`, { subcode: 33 });
  }
  sim.actingFor(req, String(obj[rule.owner]), rule.platform, rule.kind);
  // A tombstone: the id stays unknown to every read (GET /{id} of a deleted post is Graph's
  // "does not exist", never the account a sandbox token would otherwise make of an unknown id).
  sim.objects.set(key, { _type: DELETED, id: String(obj.id) });
  const postId = String(obj.id);
  sim.removePost(rule.platform, postId);
  return rule.platform === 'facebook' ? { success: true } : { success: true, deleted_id: postId };
}
