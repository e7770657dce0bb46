import { WebhookCreateSchema, WebhookUpdateSchema } from '@socialpub/core';
import { Hono } from 'hono';
import { z } from 'zod';
import type { WebhooksService } from '../../events/webhooks-service';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { rateClass } from '../middleware/rate-limit';

const DeliveriesQuery = z.strictObject({
  limit: z.coerce.number().int({ error: 'limit must be a whole number' }).min(1, { error: 'limit must be 1 to 100' }).max(100, { error: 'limit must be 1 to 100' }).default(20),
  before: z.string().optional(),
});

/** /webhooks: the user's endpoints, their deliveries, test events and redelivery. */
export function webhooksRoutes(webhooks: WebhooksService) {
  return new Hono<AppEnv>()
    .post('/', rateClass('webhooks'), async (c) => {
      const parsed = WebhookCreateSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const webhook = await webhooks.create(c.get('user'), parsed.data);
      return c.json({ success: true, message: `Created ${webhook.id}; keep its secret now, it is not shown again`, webhook }, 201);
    })
    .get('/', rateClass('webhooks'), (c) => c.json({ success: true, webhooks: webhooks.list(c.get('user')) }, 200))
    .get('/:id', rateClass('webhooks'), (c) => c.json({ success: true, webhook: webhooks.get(c.get('user'), c.req.param('id')) }, 200))
    .patch('/:id', rateClass('webhooks'), async (c) => {
      const parsed = WebhookUpdateSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const webhook = await webhooks.update(c.get('user'), c.req.param('id'), parsed.data);
      return c.json({ success: true, message: `Updated ${webhook.id}`, webhook }, 200);
    })
    .delete('/:id', rateClass('webhooks'), async (c) => {
      const id = c.req.param('id');
      await webhooks.remove(c.get('user'), id);
      return c.json({ success: true, message: `Deleted ${id}` }, 200);
    })
    .post('/:id/test', rateClass('webhook_send'), async (c) => {
      const delivery = await webhooks.test(c.get('user'), c.req.param('id'));
      return c.json({ success: true, message: `Queued test delivery ${delivery}`, delivery_id: delivery }, 202);
    })
    .get('/:id/deliveries', rateClass('webhooks'), (c) => {
      const parsed = DeliveriesQuery.safeParse(c.req.query());
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const deliveries = webhooks.deliveries(c.get('user'), c.req.param('id'), parsed.data.limit, parsed.data.before);
      return c.json({ success: true, deliveries }, 200);
    })
    .post('/:id/deliveries/:delivery_id/redeliver', rateClass('webhook_send'), async (c) => {
      const delivery = await webhooks.redeliver(c.get('user'), c.req.param('id'), c.req.param('delivery_id'));
      return c.json({ success: true, message: `Queued ${delivery} again`, delivery_id: delivery }, 202);
    });
}
