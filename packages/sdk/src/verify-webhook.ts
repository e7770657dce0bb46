import type { SocialpubEvent } from '@socialpub/core';
import { Webhook } from 'standardwebhooks';

/**
 * A delivery that failed verification: a bad or missing signature, a timestamp outside
 * the tolerance, or missing headers. Our own class (the `standardwebhooks` one stays an
 * implementation detail), so the SDK's types need nothing from Node's.
 */
export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}

const decoder = new TextDecoder();

/**
 * Checks a webhook delivery as Standard Webhooks specifies — the signature over
 * `webhook-id.webhook-timestamp.body` with the endpoint's `whsec_` secret, and a timestamp
 * within 5 minutes — and returns the event. Pass the raw body exactly as received (a
 * string, or the bytes: a Buffer is a Uint8Array), not re-serialised JSON. Throws
 * WebhookVerificationError otherwise. Dedupe on the `webhook-id` header: a retried
 * delivery carries the same one.
 */
export function verifyWebhook(body: string | Uint8Array, headers: Record<string, string | string[] | undefined> | Headers, secret: string): SocialpubEvent {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [k, v] of entries) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? (v[0] as string) : v;
  const payload = typeof body === 'string' ? body : decoder.decode(body);
  try {
    return new Webhook(secret).verify(payload, flat) as SocialpubEvent;
  } catch (error) {
    throw new WebhookVerificationError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
