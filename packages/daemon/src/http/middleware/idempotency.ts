import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { AppEnv, IdempotencyContext } from '../env';
import { ApiError } from '../errors';

export interface IdempotencyOptions {
  store: Pick<Store, 'idempotency'>;
  clock: Clock;
  /** The route the keys belong to (a key may be reused on another route). */
  route: string;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/** JSON with sorted keys, so that the same body with other whitespace or key order is the same body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function hashBody(raw: string): string {
  let text = raw;
  try {
    text = canonical(JSON.parse(raw));
  } catch {
    // Not JSON: the raw text is the body (the route will answer 400 anyway).
  }
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Idempotency-Key: the first successful answer is kept for 24 h per user and route and
 * replayed (with Idempotent-Replayed: true) for the same body; another body with the same
 * key is a 409. A handler that creates something stores the record in its own transaction
 * (sets `saved`); otherwise the answer is stored here after the handler. Only 2xx answers
 * are kept, so a request refused for a fixable reason can be retried with the same key.
 */
export function idempotency({ store, clock, route }: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const inFlight = new Set<string>();
  return async function idempotency(c, next) {
    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      c.set('idempotency', null);
      return next();
    }
    if (!KEY.test(key)) {
      throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
      ]);
    }
    const user = c.get('user');
    const bodyHash = hashBody(await c.req.text());
    const existing = store.idempotency.find(user.id, route, key, clock.now());
    if (existing) {
      if (existing.bodyHash !== bodyHash) {
        throw new ApiError('idempotency_conflict', 'this Idempotency-Key was already used with a different request body');
      }
      c.header('Idempotent-Replayed', 'true');
      c.header('Content-Type', 'application/json');
      return c.body(existing.response, existing.status as 200);
    }
    const slot = `${user.id}\n${route}\n${key}`;
    if (inFlight.has(slot)) throw new ApiError('idempotency_conflict', 'a request with this Idempotency-Key is still being processed');
    inFlight.add(slot);
    const ctx: IdempotencyContext = { key, route, bodyHash, saved: false };
    c.set('idempotency', ctx);
    try {
      await next();
      if (!ctx.saved && c.res.status >= 200 && c.res.status < 300) {
        const response = await c.res.clone().text();
        store.idempotency.save(user.id, route, key, { bodyHash, status: c.res.status, response, createdAt: clock.now() });
      }
    } finally {
      inFlight.delete(slot);
    }
  };
}
