import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenRefreshLoop } from '../../src/connect/token-refresh-loop';
import { createConnectionsRepository } from '../../src/store/connections';
import { createCredentialsService } from '../../src/store/credentials';
import { openDatabase, type DB } from '../../src/store/database';
import { SecretBox } from '../../src/util/secrets';
import { startSim, type Sim } from '../platforms/meta/harness';

const DAY = 86_400_000;
let s: Sim;
let db: DB;

beforeEach(async () => {
  s = await startSim();
  db = openDatabase(':memory:');
  db.prepare('INSERT INTO users (id, email, approval_workflow, created_at) VALUES (?, ?, 0, ?)').run('u1', 'a@example.com', 0);
});
afterEach(async () => {
  await s.close();
  db.close();
});

function setup(token: string, obtainedAgoMs: number, platform: 'instagram' | 'threads' = 'instagram') {
  const box = new SecretBox(randomBytes(32));
  const connections = { ...createConnectionsRepository(db, box, s.clock), ...createCredentialsService(db, box, s.clock) };
  const now = s.clock.now();
  const conn = connections.save('u1', platform, {
    mode: 'live',
    accountId: 'acct',
    secrets: { access_token: token, app_secret: 'keep-me' },
    tokenObtainedAt: now - obtainedAgoMs,
    tokenExpiresAt: now - obtainedAgoMs + 60 * DAY,
    meta: { login: 'instagram' },
  });
  const refresher = new TokenRefreshLoop({ connections, clock: s.clock, baseUrl: s.baseUrl });
  return { connections, conn, refresher };
}

describe('token refresher', () => {
  it('refreshes an Instagram Login token ahead of expiry and keeps the other secrets', async () => {
    s.state.issueToken({ token: 'IGL-1', platform: 'instagram', kind: 'ig_user', accountId: 'acct', expiresAt: s.clock.now() + 15 * DAY, longLived: true, issuedAt: s.clock.now() - 45 * DAY });
    const { connections, conn, refresher } = setup('IGL-1', 45 * DAY);
    expect(await refresher.runOnce()).toEqual({ refreshed: [conn.id], expired: [], deferred: [] });
    const creds = connections.credentialsById(conn.id)!;
    expect(creds.secrets.access_token).toMatch(/^IGR/);
    expect(creds.secrets.app_secret).toBe('keep-me');
    expect(creds.tokenExpiresAt).toBe(s.clock.now() + 60 * DAY);
  });

  it('leaves tokens younger than 24 h or far from expiry alone', async () => {
    const young = setup('IGL-young', 2 * 3_600_000);
    expect((await young.refresher.runOnce()).refreshed).toEqual([]);
    expect(s.state.requests).toHaveLength(0);
  });

  it('marks the connection expired when the platform refuses the refresh', async () => {
    const { connections, conn, refresher } = setup('IGL-unknown', 50 * DAY);
    expect((await refresher.runOnce()).expired).toEqual([conn.id]);
    expect(connections.getById(conn.id)!.status).toBe('expired');
    expect(connections.getById(conn.id)!.statusReason).toMatch(/Invalid OAuth access token/);
  });

  it('keeps the connection active after a transient failure', async () => {
    s.state.faults.push({ path: '/refresh_access_token', error: { status: 503, error: { message: 'Service temporarily unavailable', code: 2, is_transient: true } } });
    const { connections, conn, refresher } = setup('IGL-2', 50 * DAY, 'threads');
    expect((await refresher.runOnce()).deferred).toEqual([conn.id]);
    expect(connections.getById(conn.id)!.status).toBe('active');
  });
});
