import type { ResolvedAddress } from '../net/address-guard';
import type { AttemptRecord } from '../store/webhooks';
import type { Clock } from '../util/clock';
import type { PostFn } from './webhook-post';
import { signedHeaders } from './webhook-signing';

/** The abort reason when an attempt is over (a DOMException made per attempt costs more than the rest of it). */
const ENDED = new Error('the attempt is over');

export interface DeliveryTarget {
  url: URL;
  address: ResolvedAddress;
}

export interface AttemptInput {
  /** The webhook-id: the same on every attempt of one delivery. */
  messageId: string;
  /** The endpoint's URL and the checked address to connect to (a refusal or a failed lookup fails the attempt). */
  target: Promise<DeliveryTarget>;
  body: string;
  /** Plain secrets that sign (after a rotation, the new and the old one). */
  secrets: readonly string[];
  clock: Clock;
  timeoutMs: number;
  post: PostFn;
  /** Aborted when the daemon stops: the attempt ends without a record. */
  stop: AbortSignal;
}

/**
 * One signed POST of a delivery, bounded by `timeoutMs` on the clock. Resolves with what
 * happened (status code or error, start and duration), or null when the daemon stopped
 * during it: nothing is recorded then, so the delivery stays pending and is sent again
 * after restart with the same webhook-id (receivers dedupe).
 */
export async function attemptDelivery(a: AttemptInput): Promise<AttemptRecord | null> {
  const startedAt = a.clock.now();
  const headers = signedHeaders(a.messageId, new Date(startedAt), a.body, a.secrets);
  let statusCode: number | null = null;
  let error: string | null = null;
  const abort = new AbortController();
  const onStop = () => abort.abort(new Error('daemon stopping'));
  a.stop.addEventListener('abort', onStop, { once: true });
  try {
    const { url, address } = await a.target;
    const timeout = a.clock.sleep(a.timeoutMs, abort.signal).then(() => {
      throw new Error(`no answer within ${a.timeoutMs / 1000} s`);
    });
    statusCode = await Promise.race([a.post({ url, address, headers, body: a.body, signal: abort.signal }), timeout]);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    a.stop.removeEventListener('abort', onStop);
    abort.abort(ENDED); // ends the timeout's sleep, or the request that timed out
  }
  if (a.stop.aborted) return null;
  return { startedAt, durationMs: a.clock.now() - startedAt, statusCode, error };
}
