import { collect, examples, parseCount, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub webhooks add|list|remove|test|deliveries|redeliver`. */
export function defineWebhooks(program: Program, kit: Kit): void {
  const webhooks = examples(program.command('webhooks').description('signed webhook endpoints that receive your events'), [
    'socialpub webhooks add https://example.com/hooks/socialpub --event target.published --event post.finished',
    'socialpub webhooks list',
    'socialpub webhooks deliveries whk_abc123',
  ]);
  const run = async () => import('./webhooks/webhooks');
  examples(
    webhooks
      .command('add')
      .description('add an endpoint; its signing secret (whsec_…) is printed once')
      .argument('<url>', 'https URL (http to private/loopback only with webhook_allow_private)')
      .option('-e, --event <type>', 'an event type or prefix (target.*) to send; repeat or comma-separate (default: all)', collect)
      .option('--description <text>', 'what the endpoint is for')
      .action(async (url, o) => (await run()).webhooksAdd(kit.ctx(), { url, events: o.event ?? [], description: o.description })),
    ['socialpub webhooks add https://example.com/hook', 'socialpub webhooks add https://example.com/hook -e post.finished --json'],
  );
  examples(
    webhooks
      .command('list')
      .description('your endpoints (never their secrets)')
      .action(async () => (await run()).webhooksList(kit.ctx())),
    ['socialpub webhooks list', 'socialpub webhooks list --json'],
  );
  examples(
    webhooks
      .command('remove')
      .description('delete an endpoint and its deliveries')
      .argument('<id>', 'the endpoint (whk_…)')
      .action(async (id) => (await run()).webhooksRemove(kit.ctx(), { id })),
    ['socialpub webhooks remove whk_abc123'],
  );
  examples(
    webhooks
      .command('test')
      .description('send a signed webhook.test event to the endpoint')
      .argument('<id>', 'the endpoint (whk_…)')
      .action(async (id) => (await run()).webhooksTest(kit.ctx(), { id })),
    ['socialpub webhooks test whk_abc123'],
  );
  examples(
    webhooks
      .command('deliveries')
      .description('recent deliveries with each attempt\'s status code and time')
      .argument('<id>', 'the endpoint (whk_…)')
      .option('--limit <n>', 'how many (1-100, default 20)', parseCount)
      .action(async (id, o) => (await run()).webhooksDeliveries(kit.ctx(), { id, limit: o.limit })),
    ['socialpub webhooks deliveries whk_abc123 --limit 5 --json'],
  );
  examples(
    webhooks
      .command('redeliver')
      .description('send a delivery again (same webhook-id)')
      .argument('<id>', 'the endpoint (whk_…)')
      .argument('<delivery_id>', 'the delivery (msg_…)')
      .action(async (id, delivery) => (await run()).webhooksRedeliver(kit.ctx(), { id, delivery })),
    ['socialpub webhooks redeliver whk_abc123 msg_42'],
  );
}
