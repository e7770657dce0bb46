import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectLive } from '../../src/connect/index';
import type { ConnectIO } from '../../src/oauth/connect-io';
import type { SimPlatform } from '../../src/platforms/meta/sim/core';
import { createConnectionsRepository } from '../../src/store/connections';
import { createCredentialsService, type CredentialsService } from '../../src/store/credentials';
import { openDatabase, type DB } from '../../src/store/database';
import { SecretBox } from '../../src/util/secrets';
import { startSim, type Sim } from '../platforms/meta/harness';

let s: Sim;
let db: DB;
let connections: ReturnType<typeof createConnectionsRepository>;
let credentials: CredentialsService;

beforeEach(async () => {
  s = await startSim();
  db = openDatabase(':memory:');
  db.prepare('INSERT INTO users (id, email, approval_workflow, created_at) VALUES (?, ?, 0, ?)').run('u1', 'a@example.com', 0);
  const box = new SecretBox(randomBytes(32));
  connections = createConnectionsRepository(db, box, s.clock);
  credentials = createCredentialsService(db, box, s.clock);
  s.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
});
afterEach(async () => {
  await s.close();
  db.close();
});

/** A browser that approves the dialog as `accountId` and follows the redirect (with Meta's "#_"). */
function io(platform: SimPlatform, accountId: string, choose?: (labels: string[]) => number): ConnectIO & { printed: string[]; opened: string[] } {
  const printed: string[] = [];
  const opened: string[] = [];
  return {
    printed,
    opened,
    prompt: async () => {
      throw new Error('no prompt expected');
    },
    choose: async (_q, choices) => choices[choose ? choose(choices.map((c) => c.label)) : 0]!.value,
    print: (l) => void printed.push(l),
    openBrowser: async (url) => {
      opened.push(url);
      const u = new URL(url);
      const redirect = u.searchParams.get('redirect_uri')!;
      const code = s.state.authorize({ platform, appId: u.searchParams.get('client_id')!, redirectUri: redirect, accountId });
      await fetch(`${redirect}?code=${code}%23_&state=${u.searchParams.get('state')}`);
    },
  };
}

const opts = { userId: 'u1', appId: '1234', appSecret: 'app-secret', redirectUri: 'http://127.0.0.1:0/callback' };

describe('connecting Meta accounts', () => {
  it('connects Instagram with Instagram Login and stores the long-lived token sealed', async () => {
    s.state.addAccount({ id: '1789', platform: 'instagram', kind: 'ig_user', username: 'shop', name: 'Shop' });
    const term = io('instagram', '1789');
    const info = await connectLive('instagram', opts, term, { connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(term.opened[0]).toMatch(/^https:\/\/www\.instagram\.com\/oauth\/authorize\?client_id=1234&.*scope=instagram_business_basic%2Cinstagram_business_content_publish/);
    expect(s.sequence()).toEqual(['POST api.instagram.com /oauth/access_token', 'GET graph.instagram.com /access_token', 'GET graph.instagram.com /me']);
    expect(info).toMatchObject({ platform: 'instagram', mode: 'live', accountId: '1789', accountName: 'shop', tokenExpiresAt: s.clock.now() + 5_184_000_000, meta: { login: 'instagram' } });
    const creds = credentials.credentialsById(info.id)!;
    expect(creds.secrets.access_token).toMatch(/^IGL/);
    expect(s.state.tokens.get(creds.secrets.access_token!)!.longLived).toBe(true);
    const raw = db.prepare('SELECT secrets_enc FROM connections').pluck().get() as string;
    expect(raw).not.toContain(creds.secrets.access_token);
    expect(raw).not.toContain('app-secret');
  });

  it('connects Threads and exchanges for a 60-day token', async () => {
    s.state.addAccount({ id: '2001', platform: 'threads', kind: 'threads_user', username: 'writer', name: 'W' });
    const info = await connectLive('threads', opts, io('threads', '2001'), { connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(s.sequence()).toEqual(['POST graph.threads.net /oauth/access_token', 'GET graph.threads.net /access_token', 'GET graph.threads.net /me']);
    expect(info).toMatchObject({ platform: 'threads', accountId: '2001', accountName: 'writer' });
  });

  it('connects a Facebook page the user picks, with its page token', async () => {
    s.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'First page' });
    s.state.addAccount({ id: 'p2', platform: 'facebook', kind: 'fb_page', username: 'p2', name: 'Second page' });
    s.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1', 'p2'] });
    const term = io('facebook', 'fbu', (labels) => labels.indexOf('Second page (p2)'));
    const info = await connectLive('facebook', opts, term, { connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(term.opened[0]).toMatch(/^https:\/\/www\.facebook\.com\/v25\.0\/dialog\/oauth\?/);
    expect(info).toMatchObject({ platform: 'facebook', accountId: 'fbu', pageId: 'p2', pageName: 'Second page', tokenExpiresAt: null });
    const creds = credentials.credentialsById(info.id)!;
    expect(s.state.tokens.get(creds.secrets.access_token!)).toMatchObject({ kind: 'fb_page', accountId: 'p2' });
    expect(s.state.tokens.get(creds.secrets.user_token!)).toMatchObject({ kind: 'fb_user', longLived: true });
  });

  it('connects Instagram through a Facebook page and its linked account', async () => {
    s.state.addAccount({ id: '1790', platform: 'instagram', kind: 'ig_user', username: 'brand', name: 'Brand' });
    s.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'Brand page', linkedIgId: '1790' });
    s.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1'] });
    const info = await connectLive('instagram', { ...opts, login: 'facebook' }, io('facebook', 'fbu'), { connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(info).toMatchObject({ platform: 'instagram', accountId: '1790', accountName: 'brand', pageId: 'p1', meta: { login: 'facebook' } });
  });

  it('refuses a wrong app secret with the platform message', async () => {
    s.state.addAccount({ id: '2001', platform: 'threads', kind: 'threads_user', username: 'writer', name: 'W' });
    await expect(connectLive('threads', { ...opts, appSecret: 'nope' }, io('threads', '2001'), { connections, clock: s.clock, baseUrl: s.baseUrl })).rejects.toThrow(/Error validating client secret/);
    expect(connections.list()).toEqual([]);
  });
});
