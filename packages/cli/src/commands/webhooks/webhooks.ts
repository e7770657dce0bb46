import { EVENT_TYPES, type EventType, type WebhookEndpoint } from '@socialpub/sdk';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { shortTime } from '../../ui/format';

/** `target.*` -> the catalogue's target types; the API takes exact types or `*`. */
function expandTypes(items: string[]): (EventType | '*')[] {
  const out = new Set<EventType | '*'>();
  for (const t of items.flatMap((i) => i.split(',')).map((i) => i.trim()).filter(Boolean)) {
    if (t === '*') out.add('*');
    else if ((EVENT_TYPES as readonly string[]).includes(t)) out.add(t as EventType);
    else if (t.endsWith('.*') && EVENT_TYPES.some((k) => k.startsWith(t.slice(0, -1)))) for (const k of EVENT_TYPES.filter((k) => k.startsWith(t.slice(0, -1)))) out.add(k);
    else throw new UsageError(`unknown event type ${JSON.stringify(t)} (known: ${EVENT_TYPES.join(', ')}, or a prefix like target.*)`);
  }
  return out.size ? [...out] : ['*'];
}

const describe = (ctx: Ctx, w: WebhookEndpoint) =>
  ctx.log.fields([
    ['id', w.id],
    ['url', w.url],
    ['events', w.event_types.join(', ')],
    ['status', w.disabled_reason ? `${w.status} (${w.disabled_reason})` : w.status],
    ...(w.description ? ([['description', w.description]] as const) : []),
  ]);

export async function webhooksAdd(ctx: Ctx, o: { url: string; events: string[]; description?: string | undefined }): Promise<void> {
  const client = await ctx.client();
  const webhook = await client.webhooks.create({ url: o.url, event_types: expandTypes(o.events), ...(o.description ? { description: o.description } : {}) });
  ctx.log.result(webhook, () => [
    `${ctx.log.green('✔')} Added ${ctx.log.bold(webhook.id)}`,
    ...describe(ctx, webhook),
    `${ctx.log.bold('secret:')} ${webhook.secret ?? ''}`,
    ctx.log.dim('keep the secret now: it is not shown again. Verify deliveries with it (Standard Webhooks; the SDK has verifyWebhook).'),
  ]);
}

export async function webhooksList(ctx: Ctx): Promise<void> {
  const client = await ctx.client();
  const webhooks = await client.webhooks.list();
  ctx.log.result({ webhooks }, () =>
    ctx.log.table(
      webhooks,
      [
        { header: 'ID', value: (w) => w.id },
        { header: 'URL', value: (w) => w.url },
        { header: 'EVENTS', value: (w) => w.event_types.join(',') },
        { header: 'STATUS', value: (w) => (w.disabled_reason ? `${w.status}: ${w.disabled_reason}` : w.status), style: (s, w) => (w.status === 'active' ? ctx.log.green(s) : ctx.log.red(s)) },
        { header: 'DESCRIPTION', value: (w) => w.description },
      ],
      'no webhooks yet: `socialpub webhooks add <url>`',
    ),
  );
}

export async function webhooksRemove(ctx: Ctx, { id }: { id: string }): Promise<void> {
  const client = await ctx.client();
  const answer = await client.webhooks.delete(id);
  ctx.log.result(answer, () => `${ctx.log.green('✔')} ${answer.message}`);
}

export async function webhooksTest(ctx: Ctx, { id }: { id: string }): Promise<void> {
  const client = await ctx.client();
  const answer = await client.webhooks.test(id);
  ctx.log.result(answer, () => [`${ctx.log.green('✔')} ${answer.message}`, ctx.log.dim(`see how it went: socialpub webhooks deliveries ${id}`)]);
}

export async function webhooksDeliveries(ctx: Ctx, { id, limit }: { id: string; limit?: number | undefined }): Promise<void> {
  const client = await ctx.client();
  const deliveries = await client.webhooks.deliveries(id, limit ? { limit } : {});
  ctx.log.result({ deliveries }, () =>
    ctx.log.table(
      deliveries,
      [
        { header: 'DELIVERY', value: (d) => d.id },
        { header: 'EVENT', value: (d) => `${d.event_type} ${d.event_id}` },
        { header: 'STATUS', value: (d) => d.status, style: (s, d) => (d.status === 'delivered' ? ctx.log.green(s) : d.status === 'failed' ? ctx.log.red(s) : s) },
        { header: 'ATTEMPTS', value: (d) => d.attempts.map((a) => `${a.status_code ?? a.error ?? '?'} ${a.duration_ms}ms`).join(', ') },
        { header: 'LAST', value: (d) => shortTime(d.attempts.at(-1)?.started_at ?? null) },
        { header: 'NEXT', value: (d) => shortTime(d.next_attempt_at) },
      ],
      'no deliveries yet',
    ),
  );
}

export async function webhooksRedeliver(ctx: Ctx, { id, delivery }: { id: string; delivery: string }): Promise<void> {
  const client = await ctx.client();
  const answer = await client.webhooks.redeliver(id, delivery);
  ctx.log.result(answer, () => `${ctx.log.green('✔')} ${answer.message}`);
}
