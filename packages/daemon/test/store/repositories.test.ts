import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/store-dialects';
import { IDEMPOTENCY_TTL_MS } from '../../src/store/idempotency';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0));
  const db = openTestDatabase(':memory:');
  const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
  return { clock, db, store };
}

describe('rate windows', () => {
  it('counts up to the limit in one window, refuses past it without counting, and starts again in the next', () => {
    const { store, clock } = setup();
    const now = clock.now();
    expect(store.rateWindows.take('u', 'auth', 2, 60_000, now)).toEqual({ allowed: true, count: 1, resetAt: now + 60_000 });
    expect(store.rateWindows.take('u', 'auth', 2, 60_000, now + 1).count).toBe(2);
    expect(store.rateWindows.take('u', 'auth', 2, 60_000, now + 2)).toEqual({ allowed: false, count: 2, resetAt: now + 60_000 });
    expect(store.rateWindows.peek('u', 'auth', 60_000, now + 3).count).toBe(2);
    expect(store.rateWindows.take('u', 'auth', 2, 60_000, now + 60_000)).toMatchObject({ allowed: true, count: 1 });
    expect(store.rateWindows.take('other', 'auth', 2, 60_000, now)).toMatchObject({ allowed: true, count: 1 });
  });

  it('prunes windows that have ended', () => {
    const { store, clock } = setup();
    store.rateWindows.take('u', 'publish', 5, 3_600_000, clock.now());
    expect(store.rateWindows.prune('publish', 3_600_000, clock.now() + 1000)).toBe(0);
    expect(store.rateWindows.prune('publish', 3_600_000, clock.now() + 3_600_000)).toBe(1);
  });
});

describe('idempotency records', () => {
  it('finds a record for 24 hours, per user and route, and prunes it after', () => {
    const { store, clock } = setup();
    const rec = { bodyHash: 'h', status: 200, response: '{"ok":true}', createdAt: clock.now() };
    store.idempotency.save('u1', 'content.publish', 'k', rec);
    expect(store.idempotency.find('u1', 'content.publish', 'k', clock.now() + IDEMPOTENCY_TTL_MS - 1)).toEqual(rec);
    expect(store.idempotency.find('u2', 'content.publish', 'k', clock.now())).toBeNull();
    expect(store.idempotency.find('u1', 'media.prepare', 'k', clock.now())).toBeNull();
    expect(store.idempotency.find('u1', 'content.publish', 'k', clock.now() + IDEMPOTENCY_TTL_MS)).toBeNull();
    expect(store.idempotency.prune(clock.now() + IDEMPOTENCY_TTL_MS + 1)).toBe(1);
  });
});

describe('api keys', () => {
  it('verifies a key, refuses a wrong secret, a revoked key and a rotated one', () => {
    const { store, clock } = setup();
    const { user } = store.users.ensure('a@example.com', clock.now());
    const { apiKey, info } = store.apiKeys.create(user.id, 'laptop', clock.now());
    expect(store.apiKeys.verify(apiKey, clock.now())).toEqual({ ok: true, keyId: info.id, userId: user.id, scope: 'full' });
    expect(store.apiKeys.verify(apiKey.slice(0, -2) + 'zz', clock.now())).toMatchObject({ ok: false });
    expect(store.apiKeys.verify('sp_key_short_x', clock.now())).toEqual({ ok: false, reason: 'malformed' });
    const rotated = store.apiKeys.rotate(info.id, clock.now())!;
    expect(store.apiKeys.verify(apiKey, clock.now())).toEqual({ ok: false, reason: 'rotated' });
    expect(store.apiKeys.get(info.id)!.replacedBy).toBe(rotated.info.id);
    expect(rotated.info.name).toBe('laptop');
    expect(store.apiKeys.rotate(info.id, clock.now())).toBeNull();
    expect(store.apiKeys.revoke(rotated.info.id, clock.now())).toBe(true);
    expect(store.apiKeys.verify(rotated.apiKey, clock.now())).toEqual({ ok: false, reason: 'revoked' });
  });

  it('records the last use at most once a minute', () => {
    const { store, clock } = setup();
    const { user } = store.users.ensure('a@example.com', clock.now());
    const { apiKey, info } = store.apiKeys.create(user.id, null, clock.now());
    store.apiKeys.verify(apiKey, clock.now());
    const first = clock.now();
    clock.set(first + 30_000);
    store.apiKeys.verify(apiKey, clock.now());
    expect(store.apiKeys.get(info.id)!.lastUsedAt).toBe(first);
    clock.set(first + 61_000);
    store.apiKeys.verify(apiKey, clock.now());
    expect(store.apiKeys.get(info.id)!.lastUsedAt).toBe(first + 61_000);
  });
});

describe('users', () => {
  it('finds users by email without regard to case, and creates each once', () => {
    const { store, clock } = setup();
    const a = store.users.ensure('Me@Example.com', clock.now());
    const b = store.users.ensure('me@example.com', clock.now());
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect(b.user.id).toBe(a.user.id);
    expect(a.user.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('settings', () => {
  it('stores JSON values per scope', () => {
    const { store } = setup();
    store.settings.set('global', 'x', { a: 1 });
    store.settings.set('u1', 'x', true);
    expect(store.settings.get('global', 'x')).toEqual({ a: 1 });
    expect(store.settings.get('u1', 'x')).toBe(true);
    store.settings.delete('u1', 'x');
    expect(store.settings.get('u1', 'x')).toBeNull();
  });
});
