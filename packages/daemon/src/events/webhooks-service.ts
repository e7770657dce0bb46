import {
  EVENT_VERSION,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_EVENT,
  formatInstant,
  type WebhookCreateRequest,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookUpdateRequest,
} from '@socialpub/core';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import type { EndpointRecord } from '../store/webhooks';
import type { Clock } from '../util/clock';
import { newId } from '../util/ids';
import type { SecretBox } from '../util/secrets';
import { ServiceError, invalidInput } from '../util/service-error';
import { eventId } from './present-event';
import { messageId } from './delivery-records';
import { newWebhookSecret } from './webhook-signing';
import { TargetRefused, parseTargetUrl, resolveTarget, type TargetPolicy } from './webhook-target';

/** After a rotation the old secret keeps signing this long, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

export interface WebhooksServiceDeps {
  store: Store;
  clock: Clock;
  secrets: SecretBox;
  policy: TargetPolicy;
  /** Told when a delivery was queued (the deliverer's pump). */
  queued?: () => void;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

function present(e: EndpointRecord, secret?: string): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    status: e.status,
    disabled_reason: e.disabledReason,
    failing_since: e.failingSince === null ? null : formatInstant(e.failingSince),
    created_at: formatInstant(e.createdAt),
    updated_at: formatInstant(e.updatedAt),
    ...(secret ? { secret } : {}),
  };
}

/** Webhook endpoints of a user: every check before anything is stored; secrets shown once. */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { store, clock } = deps;

  function own(user: User, id: string): EndpointRecord {
    const e = store.webhooks.get(id);
    if (!e) throw new ServiceError('not_found', `no webhook endpoint ${id}`);
    if (e.userId !== user.id) throw new ServiceError('forbidden', `webhook endpoint ${id} belongs to another user`);
    return e;
  }

  async function checkUrl(input: string): Promise<string> {
    try {
      const url = parseTargetUrl(input, deps.policy);
      await resolveTarget(url, deps.policy);
      return url.href;
    } catch (err) {
      if (err instanceof TargetRefused) throw invalidInput([{ path: 'url', message: err.message }]);
      throw err;
    }
  }

  return {
    async create(user: User, req: WebhookCreateRequest): Promise<WebhookEndpoint> {
      const url = await checkUrl(req.url);
      const secret = newWebhookSecret();
      const id = newId('whk');
      const now = clock.now();
      const types = [...new Set(req.event_types)];
      await store.commits.durable(() => {
        if (store.webhooks.count(user.id) >= MAX_WEBHOOK_ENDPOINTS) {
          throw invalidInput([{ path: '(body)', message: `at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per user; delete one first` }]);
        }
        store.webhooks.create({ id, userId: user.id, url, description: req.description ?? '', eventTypes: types, secretEnc: deps.secrets.seal(secret) }, now);
      });
      return present(store.webhooks.get(id) as EndpointRecord, secret);
    },

    list(user: User): WebhookEndpoint[] {
      return store.webhooks.list(user.id).map((e) => present(e));
    },

    get(user: User, id: string): WebhookEndpoint {
      return present(own(user, id));
    },

    async update(user: User, id: string, req: WebhookUpdateRequest): Promise<WebhookEndpoint> {
      const e = own(user, id);
      const url = req.url === undefined ? e.url : await checkUrl(req.url);
      const now = clock.now();
      const secret = req.rotate_secret ? newWebhookSecret() : undefined;
      await store.commits.durable(() => {
        store.webhooks.update(id, { url, description: req.description ?? e.description, eventTypes: req.event_types ? [...new Set(req.event_types)] : e.eventTypes }, now);
        if (secret) store.webhooks.rotateSecret(id, deps.secrets.seal(secret), now + SECRET_OVERLAP_MS, now);
        if (req.enabled === true && e.status === 'disabled') store.webhooks.enable(id, now);
        if (req.enabled === false && e.status === 'active') store.webhooks.disable(id, 'disabled by the user', now);
      });
      return present(store.webhooks.get(id) as EndpointRecord, secret);
    },

    async remove(user: User, id: string): Promise<void> {
      own(user, id);
      await store.commits.durable(() => store.webhooks.remove(id));
    },

    /** Queues a `webhook.test` delivery to the endpoint (signed and retried like any other). */
    async test(user: User, id: string): Promise<string> {
      const e = own(user, id);
      if (e.status !== 'active') throw new ServiceError('conflict', `webhook endpoint ${id} is disabled (${e.disabledReason ?? 'no reason'}); enable it first`);
      const now = clock.now();
      const body = JSON.stringify({ id: 'evt_test', type: WEBHOOK_TEST_EVENT, version: EVENT_VERSION, timestamp: formatInstant(now), job_id: null, data: { endpoint_id: id } });
      const mid = await store.commits.durable(() => store.webhooks.enqueueTest(id, body, now));
      deps.queued?.();
      return messageId(mid);
    },

    deliveries(user: User, id: string, limit: number, before?: string): WebhookDelivery[] {
      own(user, id);
      const beforeId = before === undefined ? undefined : parseMessageId(before);
      if (before !== undefined && beforeId === null) throw invalidInput([{ path: 'before', message: 'is not a delivery id (msg_…)' }]);
      return store.webhooks.deliveries(id, limit, beforeId ?? undefined).map((m) => {
        const type = m.eventId === null ? WEBHOOK_TEST_EVENT : (store.events.get(m.eventId)?.type ?? 'unknown');
        return {
          id: messageId(m.id),
          endpoint_id: m.endpointId,
          event_id: m.eventId === null ? 'evt_test' : eventId(m.eventId),
          event_type: type,
          status: m.status,
          attempts: m.attemptList.map((a) => ({ started_at: formatInstant(a.startedAt), duration_ms: a.durationMs, status_code: a.statusCode, error: a.error })),
          next_attempt_at: m.status === 'pending' && m.nextAttemptAt !== null ? formatInstant(m.nextAttemptAt) : null,
          created_at: formatInstant(m.createdAt),
        };
      });
    },

    /** Sends a delivery again now, with the same webhook-id. */
    async redeliver(user: User, id: string, delivery: string): Promise<string> {
      const e = own(user, id);
      const mid = parseMessageId(delivery);
      const m = mid === null ? null : store.webhooks.message(mid);
      if (!m || m.endpointId !== e.id) throw new ServiceError('not_found', `no delivery ${delivery} of webhook endpoint ${id}`);
      if (e.status !== 'active') throw new ServiceError('conflict', `webhook endpoint ${id} is disabled; enable it first`);
      if (m.eventId !== null && !store.events.get(m.eventId)) throw new ServiceError('conflict', `the event of ${delivery} is no longer kept`);
      await store.commits.durable(() => store.webhooks.redeliver(m.id, clock.now()));
      deps.queued?.();
      return messageId(m.id);
    },
  };
}

function parseMessageId(text: string): number | null {
  const m = /^msg_(\d{1,15})$/.exec(text);
  return m ? Number(m[1]) : null;
}
