import type { PostedRef } from '../shared/follow-ups/reply-poster';
import type { MetaRun } from './meta-run';

/**
 * A comment under a published Instagram media or Facebook object: `POST /{id}/comments`
 * with `message`, answered `{id}` (docs/reference/platforms.md §12.1.2, §12.2.3). Neither
 * platform documents a link to a comment, so the URL is null.
 */
export async function postMetaComment(run: MetaRun, objectId: string, message: string): Promise<PostedRef> {
  const body = await run.call<{ id: string }>(`${objectId}/comments`, { method: 'POST', params: { message } }, { publishing: true });
  return { id: String(body.id), url: null };
}
