import type { Routes } from '@socialpub/core';
import type { InboxService } from '../../inbox/inbox-service';
import type { Store } from '../../store/store';
import { jobSourceOf } from '../job-source';
import type { RouteHandlers } from '../route-table/mount-route';

type InboxRoute = 'inbox.list' | 'inbox.refresh' | 'inbox.read' | 'inbox.hide' | 'inbox.reply' | 'inbox.approve_reply' | 'inbox.reject_reply' | 'inbox.delete_reply';

/** /inbox (declared in core's inbox-routes.ts): comments under the caller's published posts, and replies to them. */
export function inboxHandlers(deps: { store: Store; inbox: InboxService }): RouteHandlers<Routes, InboxRoute> {
  const { store, inbox } = deps;
  return {
    'inbox.list': ({ query }, c) => inbox.list(c.get('user'), query),
    'inbox.refresh': (_input, c) => inbox.refresh(c.get('user')),
    'inbox.read': ({ params }, c) => inbox.mark(c.get('user'), params.id, 'read'),
    'inbox.hide': ({ params }, c) => inbox.mark(c.get('user'), params.id, 'hidden'),
    'inbox.reply': ({ params, body }, c) => {
      const user = c.get('user');
      const idem = c.get('idempotency');
      return inbox.reply(user, params.id, body.text, {
        source: jobSourceOf(c),
        scope: c.get('scope'),
        // The Idempotency-Key's record commits with the reply: a retry after a crash finds both or neither.
        alsoCommit: (answer, now) => {
          if (!idem) return;
          store.idempotency.save(user.id, idem.route, idem.key, { bodyHash: idem.bodyHash, status: 202, response: JSON.stringify(answer), createdAt: now });
          idem.saved = true;
        },
      });
    },
    'inbox.approve_reply': ({ params }, c) => inbox.approve(c.get('user'), params.id),
    'inbox.reject_reply': ({ params }, c) => inbox.reject(c.get('user'), params.id),
    'inbox.delete_reply': ({ params }, c) => inbox.deleteReply(c.get('user'), params.id),
  };
}
