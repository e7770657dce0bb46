import type { Store } from '../store/store';
import type { AttemptEnd, DueMessage, EndpointRecord } from '../store/webhooks';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import type { SecretBox } from '../util/secrets';
import type { EventsHub } from './events-hub';
import { attemptDelivery, type DeliveryTarget } from './delivery-attempt';
import { DeliveryRecords, messageId } from './delivery-records';
import { presentEvent } from './present-event';
import { parseTargetUrl, resolveTarget, type TargetPolicy } from './webhook-target';
import { postWebhook, type PostFn } from './webhook-post';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface DelivererOptions {
  store: Store;
  secrets: SecretBox;
  clock: Clock;
  logger: RootLogger;
  policy: TargetPolicy;
  /** Deliveries in flight at once, over all endpoints. Default 128. */
  concurrency?: number;
  /** Deliveries in flight at once to one endpoint while it is behind (see keepUpMs). Default 32. */
  perEndpoint?: number;
  /**
   * The lateness one-at-a-time may add: an endpoint is behind when its oldest waiting
   * delivery has waited longer than this, or when sending its due ones one at a time would
   * take longer (their number times its round trip) — or, for a slow receiver, longer than
   * four of its round trips. Behind, it gets up to `perEndpoint` at once until it has
   * caught up; otherwise one at a time, in event-id order. Default 20 ms.
   */
  keepUpMs?: number;
  /** An attempt without a response head by then fails (and is retried). Default 15 s. */
  timeoutMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Replaced in tests. */
  post?: PostFn;
}

/** The reason the loop's sleep is cut short (an Error made once: a DOMException per wake-up costs). */
const WOKEN = new Error('woken');
/** The round trip assumed before an endpoint's first answer, and the least assumed (ms). */
const DEFAULT_RTT_MS = 1;
const MIN_RTT_MS = 0.1;
/** Round trips' worth of waiting deliveries an endpoint may have before it is behind. */
const QUEUE_OF_ROUND_TRIPS = 4;
/** Decrypted secrets kept at most (a cache over the endpoints' sealed secrets). */
const SECRET_CACHE = 256;

/**
 * Sends pending webhook deliveries from the outbox. At least once: a delivery's row stays
 * pending until the end of an attempt is committed, so one in flight at a crash is sent
 * again after restart, with the same webhook-id.
 *
 * Order and pace per endpoint: while it keeps up, one delivery at a time, the oldest due
 * first, so it gets its events in id order. When one at a time cannot keep up (see
 * `keepUpMs`: a burst faster than its round trip), up to `perEndpoint` go at once, started
 * in id order, until it has caught up. At most
 * `concurrency` in flight in all, each bounded by `timeoutMs`. Nothing here is awaited by
 * publishing: a slow receiver holds only its own slots.
 */
export class WebhookDeliverer {
  readonly #o: Required<Omit<DelivererOptions, 'post'>> & { post: PostFn };
  readonly #records: DeliveryRecords;
  /** Deliveries started and not yet recorded, by message id. */
  readonly #running = new Map<number, Promise<void>>();
  readonly #perEndpoint = new Map<string, number>();
  /** Per endpoint, the newest delivery started. */
  readonly #cursor = new Map<string, number>();
  readonly #secrets = new Map<string, string>();
  /** Per endpoint, a moving average of its attempts' durations (ms). */
  readonly #rtt = new Map<string, number>();
  readonly #stop = new AbortController();
  #wake: AbortController | null = null;
  #loop: Promise<void> | null = null;
  #unsubscribe: (() => void) | null = null;
  #pumping: Promise<void> | null = null;
  /** When this deliverer was made: a backlog from before (a restart) has waited since then, not since its commit. */
  readonly #since: number;

  constructor(options: DelivererOptions) {
    this.#o = { concurrency: 128, perEndpoint: 32, keepUpMs: 20, timeoutMs: 15 * SECOND, random: Math.random, post: postWebhook, ...options };
    this.#since = this.#o.clock.now();
    this.#records = new DeliveryRecords({ store: this.#o.store, logger: this.#o.logger, random: this.#o.random });
  }

  /** Starts the deliveries that are due and have a free slot, looking at every pending one (new, retries, redeliveries). */
  pump(): void {
    this.#pump(false);
  }

  /**
   * With `newOnly`, only deliveries newer than the last one started per endpoint are looked
   * at (new events, and the next ones of a backlog): a pump per turn of a burst then reads a
   * few rows, not the whole window in flight again. Older ones that fall due (retries) are
   * found by the full pump of the loop, which wakes when the next one is due.
   */
  #pump(newOnly: boolean): void {
    if (this.#stop.signal.aborted) return;
    const { store, clock, perEndpoint } = this.#o;
    let free = this.#o.concurrency - this.#running.size;
    if (free <= 0) return;
    const now = clock.now();
    for (const endpoint of store.webhooks.dueEndpoints(now)) {
      if (free <= 0) break;
      const busy = this.#perEndpoint.get(endpoint.id) ?? 0;
      if (busy >= perEndpoint) continue;
      // A full read sees the ones in flight too (usually the oldest); a read of new ones does not.
      const after = newOnly ? (this.#cursor.get(endpoint.id) ?? 0) : 0;
      const inFlightSeen = newOnly ? 0 : busy;
      const waiting = (limit: number) => store.webhooks.dueFor(endpoint.id, now, after, inFlightSeen + limit).filter((m) => !this.#running.has(m.id));
      let next = waiting(1);
      const oldest = next[0];
      if (!oldest) continue;
      let room = 1 - busy;
      if (busy > 0 && this.#behind(endpoint.id, now, oldest)) {
        room = perEndpoint - busy;
        next = waiting(room);
      }
      const start = next.slice(0, Math.min(room, free));
      if (start.length === 0) continue;
      free -= start.length;
      this.#cursor.set(endpoint.id, Math.max(this.#cursor.get(endpoint.id) ?? 0, ...start.map((m) => m.id)));
      // One check of the target (address guard, DNS) for the deliveries started together.
      const target = this.#target(endpoint);
      for (const m of start) this.#start(endpoint, m, target);
    }
  }

  /** Resolves when nothing is in flight (tests). */
  async settled(): Promise<void> {
    while (this.#running.size > 0 || this.#pumping) {
      await Promise.allSettled([...this.#running.values()]);
      await this.#pumping;
    }
  }

  get inFlight(): number {
    return this.#running.size;
  }

  /** Delivers from now on: on every new event, and when a retry falls due. */
  start(hub: EventsHub): void {
    if (this.#loop) return;
    this.#unsubscribe = hub.subscribe(() => this.#pumpSoon());
    this.#loop = (async () => {
      while (!this.#stop.signal.aborted) {
        this.pump();
        const next = this.#o.store.webhooks.nextDueAt();
        const wait = next === null ? MINUTE : Math.min(MINUTE, Math.max(SECOND, next - this.#o.clock.now()));
        const wake = (this.#wake = new AbortController());
        try {
          await this.#o.clock.sleep(wait, AbortSignal.any([this.#stop.signal, wake.signal]));
        } catch {
          // woken or stopped
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#stop.abort();
    await this.#loop;
    // Attempts that ended before the stop are recorded; those it cut short stay pending.
    this.#records.flush();
    await this.settled();
  }

  #start(endpoint: EndpointRecord, m: DueMessage, target: Promise<DeliveryTarget>): void {
    this.#perEndpoint.set(endpoint.id, (this.#perEndpoint.get(endpoint.id) ?? 0) + 1);
    const attempt = this.#deliver(endpoint, m, target).catch((error: unknown) => {
      // The database is closing: nothing was recorded, the delivery stays pending.
      this.#o.logger.warn('webhook delivery not attempted', { delivery: messageId(m.id), error: (error as Error).message });
      return null;
    });
    const run = attempt.then((end) => {
      this.#running.delete(m.id);
      const left = (this.#perEndpoint.get(endpoint.id) ?? 1) - 1;
      if (left > 0) this.#perEndpoint.set(endpoint.id, left);
      else this.#perEndpoint.delete(endpoint.id);
      this.#pumpSoon();
      // A retry may fall due before the loop's next wake-up.
      if (end === 'retry') this.#wake?.abort(WOKEN);
    });
    this.#running.set(m.id, run);
  }

  /** One pump for all the deliveries that end in one turn of the event loop. */
  #pumpSoon(): void {
    this.#pumping ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.#pumping = null;
        this.#pump(true);
        resolve();
      }),
    );
  }

  /** One attempt and its record; resolves with what follows (null: nothing recorded, it stays pending). */
  async #deliver(endpoint: EndpointRecord, m: DueMessage, target: Promise<DeliveryTarget>): Promise<AttemptEnd['kind'] | null> {
    const { clock } = this.#o;
    const body = m.body ?? (m.event ? JSON.stringify(presentEvent(m.event)) : null);
    if (body === null) {
      const attempt = { startedAt: clock.now(), durationMs: 0, statusCode: null, error: 'the event is no longer kept' };
      return this.#records.add({ message: m, endpoint, attempt, final: true });
    }
    const started = clock.now();
    const sealed = [endpoint.secretEnc, ...(endpoint.previousSecretEnc && (endpoint.previousUntil ?? 0) > started ? [endpoint.previousSecretEnc] : [])];
    const attempt = await attemptDelivery({
      messageId: messageId(m.id),
      target,
      body,
      secrets: sealed.map((s) => this.#open(s)),
      clock,
      timeoutMs: this.#o.timeoutMs,
      post: this.#o.post,
      stop: this.#stop.signal,
    });
    if (!attempt) return null;
    const rtt = this.#rtt.get(endpoint.id);
    this.#rtt.set(endpoint.id, rtt === undefined ? attempt.durationMs : rtt * 0.9 + attempt.durationMs * 0.1);
    return this.#records.add({ message: m, endpoint, attempt });
  }

  /**
   * Whether one at a time leaves the endpoint behind (see keepUpMs): its oldest waiting
   * delivery waited longer than the budget, or more are due than fit in it at its round
   * trip (a moving average of its attempts' durations; counted only as far as that bound).
   */
  #behind(endpointId: string, now: number, oldest: DueMessage): boolean {
    const rtt = Math.max(MIN_RTT_MS, this.#rtt.get(endpointId) ?? DEFAULT_RTT_MS);
    // A slow receiver (a round trip of 200 ms) may have a few waiting before it is behind:
    // two events of one commit still go one after the other, in order.
    const budget = Math.max(this.#o.keepUpMs, QUEUE_OF_ROUND_TRIPS * rtt);
    const waited = now - Math.max(oldest.nextAttemptAt ?? now, this.#since);
    if (waited > budget) return true;
    const bound = Math.ceil(budget / rtt);
    return this.#o.store.webhooks.countDue(endpointId, now, bound + 1) > bound;
  }

  /** The endpoint's URL and checked address; a refusal becomes the attempts' error. */
  #target(endpoint: EndpointRecord): Promise<DeliveryTarget> {
    const target = (async () => {
      const url = parseTargetUrl(endpoint.url, this.#o.policy);
      return { url, address: await resolveTarget(url, this.#o.policy) };
    })();
    target.catch(() => {}); // each attempt awaits it and records the refusal
    return target;
  }

  #open(sealed: string): string {
    let plain = this.#secrets.get(sealed);
    if (plain === undefined) {
      if (this.#secrets.size >= SECRET_CACHE) this.#secrets.clear();
      plain = this.#o.secrets.open(sealed);
      this.#secrets.set(sealed, plain);
    }
    return plain;
  }
}
