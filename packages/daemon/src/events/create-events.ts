import type { DaemonConfig } from '../config';
import type { HostResolver } from '../net/address-guard';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import type { SecretBox } from '../util/secrets';
import { EventsHub } from './events-hub';
import { WebhookDeliverer } from './webhook-deliverer';

const HOUR = 3_600_000;
/** connection.expiring_soon: a live token running out within this (and not refreshed by then). */
export const EXPIRING_SOON_MS = 3 * 24 * HOUR;
/** Retention and expiry checks run this often. */
const SWEEP_MS = 10 * 60_000;

export interface EventsParts {
  hub: EventsHub;
  deliverer: WebhookDeliverer;
  /** Drops events and ended deliveries past retention; writes connection.expiring_soon. */
  sweep(): void;
  /** The event streams of this daemon. */
  start(): void;
  /** Webhook deliveries and retention: the leading daemon's (cluster/leadership.ts). */
  lead(): void;
  stop(): Promise<void>;
}

/** The events module of the daemon: the hub over the outbox, the webhook deliverer, the retention sweeper. */
export function createEvents(o: {
  store: Store;
  secrets: SecretBox;
  clock: Clock;
  logger: RootLogger;
  config: DaemonConfig;
  /** Wake listeners as soon as this process writes an event (default true); false: only the 20 ms poll (bench/events compares). */
  notify?: boolean;
  /** Resolves webhook host names; default the system resolver (tests map names to chosen addresses). */
  resolve?: HostResolver;
}): EventsParts {
  const { store, clock, logger, config } = o;
  const hub = new EventsHub(store.events, logger);
  const deliverer = new WebhookDeliverer({ store, secrets: o.secrets, clock, logger, policy: { allowPrivate: config.webhookAllowPrivate, ...(o.resolve ? { resolve: o.resolve } : {}) } });
  let timer: NodeJS.Timeout | null = null;

  function sweep() {
    const now = clock.now();
    try {
      store.commits.relaxed(() => {
        store.events.warnExpiring(now, EXPIRING_SOON_MS);
        store.webhooks.prune(now - config.eventRetentionMs);
        store.events.prune(now - config.eventRetentionMs);
      });
    } catch (error) {
      logger.warn('events sweep failed', { error: (error as Error).message });
    }
  }

  return {
    hub,
    deliverer,
    sweep,
    /** The event streams of this daemon: woken by its own writes and, by a poll (or NOTIFY), by every other writer's. */
    start() {
      if (o.notify ?? true) hub.watchAppends();
      hub.start();
    },
    /** The once-per-database work (the leading daemon's, cluster/leadership.ts): webhook deliveries and retention. */
    lead() {
      if (timer) return;
      sweep();
      deliverer.start(hub);
      timer = setInterval(sweep, SWEEP_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await deliverer.stop();
      hub.stop();
    },
  };
}
