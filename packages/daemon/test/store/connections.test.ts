import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/store-dialects';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';

function setup() {
  const clock = new ManualClock();
  const db = openTestDatabase(':memory:');
  const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
  const { user } = store.users.ensure('a@example.com', clock.now());
  return { clock, db, store, user };
}

describe('connections repository', () => {
  it('seals secrets at rest and opens them in credentialsFor', () => {
    const { db, store, user } = setup();
    store.connections.save(user.id, 'twitter', { mode: 'live', accountId: '42', secrets: { access_token: 'AT-plain', refresh_token: 'RT-plain' }, tokenExpiresAt: 5 });
    const raw = JSON.stringify(db.prepare('SELECT * FROM connections').all());
    expect(raw).not.toContain('AT-plain');
    expect(raw).not.toContain('RT-plain');
    const creds = store.credentials.credentialsFor(user.id, 'twitter')!;
    expect(creds).toMatchObject({ mode: 'live', accountId: '42', secrets: { access_token: 'AT-plain', refresh_token: 'RT-plain' }, tokenExpiresAt: 5 });
    expect(store.credentials.credentialsFor(user.id, 'threads')).toBeNull();
  });

  it('saves refreshed tokens together, and an empty refresh token never overwrites the stored one', () => {
    const { clock, store, user } = setup();
    const conn = store.connections.save(user.id, 'twitter', { mode: 'live', secrets: { access_token: 'a1', refresh_token: 'r1', client_id: 'cid' }, tokenExpiresAt: 1 });
    clock.set(clock.now() + 1000);
    store.credentials.saveTokens(conn.id, { secrets: { access_token: 'a2', refresh_token: '' }, tokenExpiresAt: 99 });
    let creds = store.credentials.credentialsById(conn.id)!;
    expect(creds.secrets).toEqual({ access_token: 'a2', refresh_token: 'r1', client_id: 'cid' });
    expect(creds.tokenExpiresAt).toBe(99);
    expect(creds.tokenObtainedAt).toBe(clock.now());
    store.credentials.saveTokens(conn.id, { secrets: { access_token: 'a3', refresh_token: 'r2' } });
    creds = store.credentials.credentialsById(conn.id)!;
    expect(creds.secrets).toEqual({ access_token: 'a3', refresh_token: 'r2', client_id: 'cid' });
    expect(creds.tokenExpiresAt).toBe(99);
  });

  it('marks a connection expired, and saving tokens makes it active again', () => {
    const { store, user } = setup();
    const conn = store.connections.save(user.id, 'threads', { mode: 'live', secrets: { access_token: 'a' } });
    store.credentials.markExpired(conn.id, 'refresh token revoked');
    expect(store.connections.get(user.id, 'threads')).toMatchObject({ status: 'expired', statusReason: 'refresh token revoked' });
    store.credentials.saveTokens(conn.id, { secrets: { access_token: 'b' } });
    expect(store.connections.get(user.id, 'threads')).toMatchObject({ status: 'active', statusReason: null });
  });

  it('keeps one connection per user and platform, replaced on reconnect', () => {
    const { store, user } = setup();
    const a = store.connections.save(user.id, 'facebook', { mode: 'sandbox', pageId: 'p1' });
    const b = store.connections.save(user.id, 'facebook', { mode: 'live', pageId: 'p2' });
    expect(b.id).toBe(a.id);
    expect(store.connections.listForUser(user.id)).toHaveLength(1);
    expect(store.connections.get(user.id, 'facebook')).toMatchObject({ mode: 'live', pageId: 'p2' });
    expect(store.connections.remove(user.id, 'facebook')).toBe(true);
    expect(store.connections.get(user.id, 'facebook')).toBeNull();
  });
});
