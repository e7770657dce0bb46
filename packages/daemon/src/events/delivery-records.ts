import type { Store } from '../store/store';
import type { AttemptEnd, AttemptRecord, EndpointRecord, MessageRecord } from '../store/webhooks';
import type { RootLogger } from '../util/logger';

const HOUR = 3_600_000;
/** Waits after the 1st, 2nd, … failed attempt: 8 attempts over about 27.6 hours. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
/** An endpoint failing (no success) for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

export const messageId = (id: number) => `msg_${id}`;

/** An attempt that ended, with the delivery and the endpoint as they were when it started. */
export interface EndedAttempt {
  message: MessageRecord;
  endpoint: EndpointRecord;
  attempt: AttemptRecord;
  /** No retry can help (the event is gone): the delivery ends failed. */
  final?: boolean;
}

interface Pending extends EndedAttempt {
  committed: (end: AttemptEnd['kind'] | null) => void;
}

/**
 * Writes the ends of delivery attempts: every attempt that ends within one turn of the
 * event loop is recorded in one transaction (at 1,500 deliveries a second, one commit each
 * was most of the deliverer's work). A delivery stays pending in the database until its
 * record commits, and the deliverer holds it as in flight until then, so it is never sent
 * twice at once and never lost: a crash before the commit sends it again after restart,
 * with the same webhook-id.
 *
 * Committed without waiting for the disk (synchronous=NORMAL): at most a power failure
 * loses a record, and then the delivery is sent again with the same webhook-id — at least
 * once still holds, and a SIGKILL loses nothing (WAL).
 */
export class DeliveryRecords {
  readonly #store: Store;
  readonly #logger: RootLogger;
  readonly #random: () => number;
  #batch: Pending[] = [];
  #flush: NodeJS.Immediate | null = null;

  constructor(o: { store: Store; logger: RootLogger; random: () => number }) {
    this.#store = o.store;
    this.#logger = o.logger;
    this.#random = o.random;
  }

  /** Queues an attempt's end; resolves with what follows once it is committed (null: it could not be, the delivery stays pending). */
  add(ended: EndedAttempt): Promise<AttemptEnd['kind'] | null> {
    return new Promise((committed) => {
      this.#batch.push({ ...ended, committed });
      this.#flush ??= setImmediate(() => this.flush());
    });
  }

  /** Commits every queued end now. */
  flush(): void {
    if (this.#flush) clearImmediate(this.#flush);
    this.#flush = null;
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length === 0) return;
    const store = this.#store;
    const warnings: [string, Record<string, unknown>][] = [];
    let ends: AttemptEnd['kind'][] = [];
    try {
      ends = store.commits.relaxed(() => store.commits.durableBlocking(() => batch.map((e) => this.#record(e, warnings))));
    } catch (error) {
      // The database is closing or busy: the deliveries stay pending and are sent again.
      this.#logger.warn('webhook delivery records not written', { error: (error as Error).message, deliveries: batch.length });
      warnings.length = 0;
    }
    for (const [message, fields] of warnings) this.#logger.warn(message, fields);
    batch.forEach((e, i) => e.committed(ends[i] ?? null));
  }

  #record({ message: m, endpoint, attempt, final }: EndedAttempt, warnings: [string, Record<string, unknown>][]): AttemptEnd['kind'] {
    const store = this.#store;
    const ended = attempt.startedAt + attempt.durationMs;
    const { statusCode, error } = attempt;
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const gone = statusCode === 410;
    const end: AttemptEnd = ok ? { kind: 'delivered' } : gone || final ? { kind: 'failed' } : this.#retryOrFail(m, ended);
    const failingFor = endpoint.failingSince === null ? 0 : ended - endpoint.failingSince;
    const disableReason = gone
      ? 'the receiver answered 410 Gone'
      : !ok && failingFor >= DISABLE_AFTER_MS
        ? `every delivery failed for ${Math.floor(failingFor / HOUR / 24)} days`
        : null;
    store.webhooks.recordAttempt(m, attempt, end);
    if (!ok) warnings.push(['webhook delivery failed', { endpoint: endpoint.id, delivery: messageId(m.id), status_code: statusCode, error, attempt: m.attempts + 1 }]);
    if (disableReason && store.webhooks.disable(endpoint.id, disableReason, ended)) {
      store.events.append({
        userId: endpoint.userId,
        type: 'webhook.endpoint_disabled',
        subject: endpoint.id,
        at: ended,
        data: { endpoint_id: endpoint.id, url: endpoint.url, reason: disableReason },
      });
      warnings.push(['webhook endpoint disabled', { endpoint: endpoint.id, reason: disableReason }]);
    }
    return end.kind;
  }

  /** The next try after a failed attempt, with ±20% jitter; failed once the schedule is used up. */
  #retryOrFail(m: MessageRecord, now: number): AttemptEnd {
    const wait = RETRY_SCHEDULE_MS[m.attempts];
    if (wait === undefined) return { kind: 'failed' };
    return { kind: 'retry', nextAt: now + Math.round(wait * (0.8 + 0.4 * this.#random())) };
  }
}
