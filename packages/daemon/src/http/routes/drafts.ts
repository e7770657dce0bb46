import { MAX_DRAFTS, formatInstant, type Draft as DraftBody, type Routes } from '@socialpub/core';
import type { Draft } from '../../store/drafts';
import { newId } from '../../util/ids';
import type { RouteDeps } from '../deps';
import { ApiError } from '../errors';
import type { RouteHandlers } from '../route-table/mount-route';

const present = (d: Draft): DraftBody => ({ id: d.id, content: JSON.parse(d.content) as Record<string, unknown>, created_at: formatInstant(d.createdAt), updated_at: formatInstant(d.updatedAt) });

/**
 * Drafts (extension; issue 38, item 2): what a person's Compose form holds, saved by the
 * dashboard as it is typed, so it survives a reload and is there on another device. The
 * content is the form's own JSON, checked only when it is published. Declared in core's
 * route table; each draft is its owner's alone (another's is answered as unknown).
 */
export function draftsHandlers({ store, clock }: Pick<RouteDeps, 'store' | 'clock'>): RouteHandlers<Routes, 'drafts.list' | 'drafts.create' | 'drafts.update' | 'drafts.delete'> {
  return {
    'drafts.list': (_input, c) => ({ success: true, drafts: store.drafts.list(c.get('user').id, MAX_DRAFTS).map(present) }),
    'drafts.create': async ({ body }, c) => {
      const user = c.get('user');
      if (store.drafts.count(user.id) >= MAX_DRAFTS) throw new ApiError('conflict', `you keep ${MAX_DRAFTS} drafts already: publish or delete one first`);
      const now = clock.now();
      const draft = await store.commits.durable(() => store.drafts.create({ id: newId('drf'), userId: user.id, content: JSON.stringify(body.content), createdAt: now, updatedAt: now }));
      return { success: true, draft: present(draft) };
    },
    'drafts.update': async ({ params: { id }, body }, c) => {
      const draft = await store.commits.durable(() => store.drafts.update(c.get('user').id, id, JSON.stringify(body.content), clock.now()));
      if (!draft) throw new ApiError('not_found', `no draft ${id}`);
      return { success: true, draft: present(draft) };
    },
    'drafts.delete': async ({ params: { id } }, c) => {
      const removed = await store.commits.durable(() => store.drafts.remove(c.get('user').id, id));
      if (!removed) throw new ApiError('not_found', `no draft ${id}`);
      return undefined;
    },
  };
}
