import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { WebhookDeliverer, type DelivererOptions } from '../../src/events/webhook-deliverer';
import { EventsHub } from '../../src/events/events-hub';
import { silentLogger } from '../../src/util/logger';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import type { EventsRepository } from '../../src/store/events';
import { API, harness, type HarnessOptions } from '../http/harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
export const onCleanup = (fn: () => Promise<void> | void) => cleanups.push(fn);

/** The answer of POST /webhooks (or the error body). */
export interface CreatedBody {
  webhook: { id: string; secret: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The HTTP app with the events module: hub, deliverer (allowing loopback receivers), on a ManualClock at real time. */
export function eventsWorld(opts: HarnessOptions & { deliverer?: Partial<DelivererOptions>; allowPrivate?: boolean } = {}) {
  const secrets = new SecretBox(randomBytes(32));
  const clock = opts.clock ?? new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  let deliverer: WebhookDeliverer | null = null;
  const allowPrivate = opts.allowPrivate ?? true;
  // The app's hub, over the harness's store once it exists.
  let events: EventsRepository | null = null;
  const hub = new EventsHub({ lastId: () => events?.lastId() ?? 0 } as EventsRepository, silentLogger);
  const h = harness({
    ...opts,
    clock,
    secrets,
    config: { webhookAllowPrivate: allowPrivate, ...opts.config },
    deps: { secrets, hub, webhookQueued: () => deliverer?.pump(), heartbeatMs: 1_000, ...opts.deps },
  });
  events = h.store.events;
  deliverer = new WebhookDeliverer({
    store: h.store,
    secrets,
    clock,
    logger: silentLogger,
    policy: { allowPrivate },
    random: () => 0.5,
    ...opts.deliverer,
  });
  const d = deliverer;
  onCleanup(() => d.stop());
  return {
    ...h,
    secrets,
    hub,
    deliverer: d,
    /** Lets new events fan out and the deliveries due now run to their end. */
    async deliver() {
      d.pump();
      await d.settled();
    },
    async createWebhook(body: Record<string, unknown>) {
      const res = await h.call('POST', `${API}/webhooks`, { body });
      return { status: res.status, body: (await res.json()) as CreatedBody };
    },
    eventTypes(): string[] {
      return (h.db.prepare('SELECT type FROM events ORDER BY id').all() as { type: string }[]).map((r) => r.type);
    },
  };
}
