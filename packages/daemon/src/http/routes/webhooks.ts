import type { Routes } from '@socialpub/core';
import type { WebhooksService } from '../../events/webhooks-service';
import type { RouteHandlers } from '../route-table/mount-route';

type WebhookRoute = 'webhooks.create' | 'webhooks.list' | 'webhooks.get' | 'webhooks.update' | 'webhooks.delete' | 'webhooks.test' | 'webhooks.deliveries' | 'webhooks.redeliver';

/** /webhooks (declared in core's route table): the user's endpoints, their deliveries, test events and redelivery. */
export function webhooksHandlers(webhooks: WebhooksService): RouteHandlers<Routes, WebhookRoute> {
  return {
    'webhooks.create': async ({ body }, c) => {
      const webhook = await webhooks.create(c.get('user'), body);
      return { success: true, message: `Created ${webhook.id}; keep its secret now, it is not shown again`, webhook };
    },
    'webhooks.list': (_input, c) => ({ success: true, webhooks: webhooks.list(c.get('user')) }),
    'webhooks.get': ({ params }, c) => ({ success: true, webhook: webhooks.get(c.get('user'), params.id) }),
    'webhooks.update': async ({ params, body }, c) => {
      const webhook = await webhooks.update(c.get('user'), params.id, body);
      return { success: true, message: `Updated ${webhook.id}`, webhook };
    },
    'webhooks.delete': async ({ params }, c) => {
      await webhooks.remove(c.get('user'), params.id);
      return { success: true, message: `Deleted ${params.id}` };
    },
    'webhooks.test': async ({ params }, c) => {
      const delivery = await webhooks.test(c.get('user'), params.id);
      return { success: true, message: `Queued test delivery ${delivery}`, delivery_id: delivery };
    },
    'webhooks.deliveries': ({ params, query }, c) => ({ success: true, deliveries: webhooks.deliveries(c.get('user'), params.id, query.limit, query.before) }),
    'webhooks.redeliver': async ({ params }, c) => {
      const delivery = await webhooks.redeliver(c.get('user'), params.id, params.delivery_id);
      return { success: true, message: `Queued ${delivery} again`, delivery_id: delivery };
    },
  };
}
