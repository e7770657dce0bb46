import type { SocialpubEvent } from '@socialpub/core';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/**
 * Checks a webhook delivery as Standard Webhooks specifies — the signature over
 * `webhook-id.webhook-timestamp.body` with the endpoint's `whsec_` secret, and a timestamp
 * within 5 minutes — and returns the event. Pass the raw body exactly as received (not
 * re-serialised JSON). Throws WebhookVerificationError otherwise. Dedupe on the
 * `webhook-id` header: a retried delivery carries the same one.
 */
export function verifyWebhook(body: string | Buffer, headers: Record<string, string | string[] | undefined> | Headers, secret: string): SocialpubEvent {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [k, v] of entries) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? (v[0] as string) : v;
  return new Webhook(secret).verify(body, flat) as SocialpubEvent;
}
