import type { Store } from '../store/store';
import type { MessageRecord, AttemptEnd } from '../store/webhooks';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import type { SecretBox } from '../util/secrets';
import type { EventsHub } from './events-hub';
import { presentEvent } from './present-event';
import { signedHeaders } from './webhook-signing';
import { parseTargetUrl, resolveTarget, type TargetPolicy } from './webhook-target';
import { postWebhook, type PostFn } from './webhook-post';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Waits after the 1st, 2nd, … failed attempt: 8 attempts over about 27.6 hours. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
/** An endpoint failing (no success) for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

export interface DelivererOptions {
  store: Store;
  secrets: SecretBox;
  clock: Clock;
  logger: RootLogger;
  policy: TargetPolicy;
  /** Deliveries in flight at once, over all endpoints (one per endpoint). Default 8. */
  concurrency?: number;
  /** An attempt without a response head by then fails (and is retried). Default 15 s. */
  timeoutMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Replaced in tests. */
  post?: PostFn;
}

export const messageId = (id: number) => `msg_${id}`;

/**
 * Sends pending webhook deliveries from the outbox. At least once: a delivery's row stays
 * pending until an attempt's end is committed, so one in flight at a crash is sent again
 * after restart, with the same webhook-id. One delivery in flight per endpoint, the oldest
 * due first (per-endpoint order by event id while the receiver keeps up); at most
 * `concurrency` in flight in all, each bounded by `timeoutMs`. Nothing here is awaited by
 * publishing: a slow receiver holds only its own slot.
 */
export class WebhookDeliverer {
  readonly #o: Required<Omit<DelivererOptions, 'post'>> & { post: PostFn };
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #stop = new AbortController();
  #wake: AbortController | null = null;
  #loop: Promise<void> | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(options: DelivererOptions) {
    this.#o = { concurrency: 8, timeoutMs: 15 * SECOND, random: Math.random, post: postWebhook, ...options };
  }

  /** Starts the deliveries that are due and have a free slot. */
  pump(): void {
    if (this.#stop.signal.aborted) return;
    const free = this.#o.concurrency - this.#inFlight.size;
    if (free <= 0) return;
    let started = 0;
    for (const m of this.#o.store.webhooks.due(this.#o.clock.now(), 500)) {
      if (started >= free) break;
      if (this.#inFlight.has(m.endpointId)) continue;
      started++;
      const run = this.#deliver(m).finally(() => {
        this.#inFlight.delete(m.endpointId);
        this.pump();
        this.#wake?.abort();
      });
      this.#inFlight.set(m.endpointId, run);
    }
  }

  /** Resolves when nothing is in flight (tests). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Delivers from now on: on every new event, and when a retry falls due. */
  start(hub: EventsHub): void {
    if (this.#loop) return;
    this.#unsubscribe = hub.subscribe(() => {
      this.pump();
    });
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
    await this.settled();
  }

  async #deliver(m: MessageRecord): Promise<void> {
    const { store, clock, logger } = this.#o;
    const endpoint = store.webhooks.get(m.endpointId);
    if (!endpoint || endpoint.status !== 'active') return;
    const event = m.eventId === null ? null : store.events.get(m.eventId);
    const body = m.body ?? (event ? JSON.stringify(presentEvent(event)) : null);
    const started = clock.now();
    if (body === null) {
      await store.commits.durable(() => store.webhooks.recordAttempt(m, { startedAt: started, durationMs: 0, statusCode: null, error: 'the event is no longer kept' }, { kind: 'failed' }));
      return;
    }
    const now = new Date(started);
    const secrets = [endpoint.secretEnc, ...(endpoint.previousSecretEnc && (endpoint.previousUntil ?? 0) > started ? [endpoint.previousSecretEnc] : [])];
    const headers = signedHeaders(messageId(m.id), now, body, secrets.map((s) => this.#o.secrets.open(s)));

    let statusCode: number | null = null;
    let error: string | null = null;
    const abort = new AbortController();
    const onStop = () => abort.abort(new Error('daemon stopping'));
    this.#stop.signal.addEventListener('abort', onStop, { once: true });
    try {
      const url = parseTargetUrl(endpoint.url, this.#o.policy);
      const address = await resolveTarget(url, this.#o.policy);
      const timeout = clock.sleep(this.#o.timeoutMs, abort.signal).then(() => {
        throw new Error(`no answer within ${this.#o.timeoutMs / 1000} s`);
      });
      statusCode = await Promise.race([this.#o.post({ url, address, headers, body, signal: abort.signal }), timeout]);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    } finally {
      this.#stop.signal.removeEventListener('abort', onStop);
      abort.abort(); // ends the timeout's sleep, or the request that timed out
    }
    // Stopping mid-attempt: nothing is recorded, so the delivery stays pending and is sent
    // again after restart (the receiver dedupes by webhook-id).
    if (this.#stop.signal.aborted) return;
    const ended = clock.now();
    const attempt = { startedAt: started, durationMs: ended - started, statusCode, error };
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const end: AttemptEnd = ok ? { kind: 'delivered' } : this.#retryOrFail(m, ended);
    const gone = statusCode === 410;
    const failingFor = endpoint.failingSince === null ? 0 : ended - endpoint.failingSince;
    const disableReason = gone
      ? 'the receiver answered 410 Gone'
      : !ok && failingFor >= DISABLE_AFTER_MS
        ? `every delivery failed for ${Math.floor(failingFor / HOUR / 24)} days`
        : null;
    // Committed without waiting for the disk (one transaction, synchronous=NORMAL): at most
    // a power failure loses the record, and then the delivery is sent again with the same
    // webhook-id — at least once still holds, a SIGKILL loses nothing (WAL), and the endpoint
    // is not held up by an fsync per event (bench/events: tens instead of hundreds of events/s).
    store.commits.relaxed(() =>
      store.commits.durableBlocking(() => {
        store.webhooks.recordAttempt(m, attempt, gone ? { kind: 'failed' } : end);
      if (disableReason && store.webhooks.disable(endpoint.id, disableReason, ended)) {
        store.events.append({
          userId: endpoint.userId,
          type: 'webhook.endpoint_disabled',
          subject: endpoint.id,
          at: ended,
            data: { endpoint_id: endpoint.id, url: endpoint.url, reason: disableReason },
          });
        }
      }),
    );
    if (!ok) logger.warn('webhook delivery failed', { endpoint: endpoint.id, delivery: messageId(m.id), status_code: statusCode, error, attempt: m.attempts + 1 });
    if (disableReason) logger.warn('webhook endpoint disabled', { endpoint: endpoint.id, reason: disableReason });
  }

  /** The next try after a failed attempt, with ±20% jitter; failed once the schedule is used up. */
  #retryOrFail(m: MessageRecord, now: number): AttemptEnd {
    const wait = RETRY_SCHEDULE_MS[m.attempts];
    if (wait === undefined) return { kind: 'failed' };
    return { kind: 'retry', nextAt: now + Math.round(wait * (0.8 + 0.4 * this.#o.random())) };
  }
}
