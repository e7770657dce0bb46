import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/analytics/collector';
import { connectLive } from '../../src/connect/index';
import type { ConnectIO } from '../../src/oauth/connect-io';
import { createInstagramAnalytics } from '../../src/platforms/instagram/analytics';
import type { SimPlatform } from '../../src/platforms/meta/sim/core';
import type { PostAnalytics } from '../../src/platforms/post-analytics';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { silentLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';
import { startSim, type Sim } from '../platforms/meta/harness';

let sim: Sim | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

/** A browser that approves Meta's dialog as `accountId`, leaving ticked only `scopes` (the person unticked the rest). */
function browser(s: Sim, platform: SimPlatform, accountId: string, scopes?: string[]): ConnectIO {
  return {
    prompt: async () => {
      throw new Error('no prompt expected');
    },
    choose: async (_q, choices) => choices[0]!.value,
    print: () => undefined,
    openBrowser: async (url) => {
      const u = new URL(url);
      const redirect = u.searchParams.get('redirect_uri')!;
      const code = s.state.authorize({ platform, appId: u.searchParams.get('client_id')!, redirectUri: redirect, accountId, ...(scopes ? { scopes } : {}) });
      await fetch(`${redirect}?code=${code}%23_&state=${u.searchParams.get('state')}`);
    },
  };
}

describe('the Meta simulator enforces the insights permission per token (issue 36)', () => {
  it("answers Graph's permission error to a token whose grant lacks it, and the collector says so with the command that reconnects", async () => {
    const s = (sim = await startSim());
    s.state.apps.set('1234', { appId: '1234', appSecret: 'app-secret' });
    s.state.addAccount({ id: '1789', platform: 'instagram', kind: 'ig_user', username: 'shop', name: 'Shop' });
    const db = openDatabase(':memory:');
    const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock: s.clock });
    const { user } = store.users.ensure('a@example.com', s.clock.now());
    const opts = { userId: user.id, appId: '1234', appSecret: 'app-secret', redirectUri: 'http://127.0.0.1:0/callback' };
    // The person unticks the insights permission in the dialog: socialpub asked for it, the grant lacks it.
    const info = await connectLive('instagram', opts, browser(s, 'instagram', '1789', ['instagram_business_basic', 'instagram_business_content_publish']), { connections: store.connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(info.meta.scopes).toContain('instagram_business_manage_insights');
    const token = store.credentials.credentialsById(info.id)!.secrets.access_token!;
    expect(s.state.tokens.get(token)!.scopes).toEqual(['instagram_business_basic', 'instagram_business_content_publish']);

    // A post of that account, 2 hours old.
    s.state.objects.set('18001', { _type: 'ig_media', id: '18001', accountId: '1789', media_product_type: 'FEED', createdAt: s.clock.now() });
    await s.clock.advance(2 * 3_600_000);
    const insights = (t: string) => fetch(`${s.baseUrl('graph.instagram.com')}/v25.0/18001/insights?metric=views,likes&access_token=${encodeURIComponent(t)}`);
    const refused = await insights(token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: 10, type: 'OAuthException', message: '(#10) Application does not have permission for this action' });

    store.jobs.create(
      { id: 'job_s', userId: user.id, caption: 'c', platforms: ['instagram'], platformCaptions: {}, platformTypes: {}, mediaUrls: [], publishNow: true, scheduledFor: null, typeSchedule: {}, requireApproval: false, sortAt: 0, createdAt: 0 },
      [{ id: 'job_s_0', platform: 'instagram', type: 'feed', scheduleKey: null, dueAt: 0, status: 'scheduled' }],
    );
    db.prepare("UPDATE targets SET status = 'published', post_id = '18001', published_at = ?, connection_id = ?, account_key = 'instagram' WHERE id = 'job_s_0'").run(s.clock.now() - 2 * 3_600_000, info.id);
    // The real reader, its live host pointed at the simulator.
    const real = createInstagramAnalytics();
    const reader: PostAnalytics = { ...real, read: (ctx, ids) => real.read({ ...ctx, baseUrl: s.baseUrl }, ids) };
    const collector = createCollector({ store, clock: s.clock, logger: silentLogger, readers: new Map([['instagram', reader]]), calls: { credentials: store.credentials, clock: s.clock, logger: silentLogger, sandboxBaseUrl: null } });
    const problem = (await collector.refreshJob('job_s')).get('job_s_0');
    expect(problem?.code).toBe('missing_scope');
    expect(problem!.message).toMatch(/^Instagram: \(#10\) Application does not have permission for this action \(code 10, fbtrace_id \S+\): this connection's grant lacks the instagram_business_manage_insights permission figures need; reconnect it \(socialpub connect instagram\) and allow it$/);
    expect(store.postMetrics.statesOfJob('job_s').get('job_s_0')?.problem).toMatchObject({ code: 'missing_scope', message: problem!.message });

    // Reconnected with the permission allowed: the same post reads.
    const again = await connectLive('instagram', opts, browser(s, 'instagram', '1789'), { connections: store.connections, clock: s.clock, baseUrl: s.baseUrl });
    expect(again.id).toBe(info.id);
    expect((await insights(store.credentials.credentialsById(info.id)!.secrets.access_token!)).status).toBe(200);
    expect((await collector.refreshJob('job_s')).size).toBe(0);
    expect(store.postMetrics.historyOfJob('job_s').get('job_s_0')).toHaveLength(1);
  });

  it('asks Threads for threads_manage_insights and a Facebook page token for read_insights, the grant carried from the user token to the page token', async () => {
    const s = (sim = await startSim());
    s.state.addAccount({ id: 'th1', platform: 'threads', kind: 'threads_user', username: 'writer', name: 'W' });
    s.state.addAccount({ id: 'p1', platform: 'facebook', kind: 'fb_page', username: 'p1', name: 'Page' });
    s.state.addAccount({ id: 'fbu', platform: 'facebook', kind: 'fb_user', username: 'u', name: 'Ann', pageIds: ['p1'] });
    s.state.objects.set('th_post', { _type: 'threads_media', id: 'th_post', accountId: 'th1', createdAt: s.clock.now() });
    s.state.objects.set('post:p1_9', { _type: 'fb_post', id: 'p1_9', pageId: 'p1', createdAt: s.clock.now() });
    const token = (platform: 'threads' | 'facebook', kind: 'threads_user' | 'fb_user', accountId: string, scopes: string[]) =>
      s.state.issueToken({ token: `tok_${platform}_${scopes.length}`, platform, kind, accountId, expiresAt: null, longLived: true, scopes }).token;
    const insights = async (host: string, version: string, id: string, metric: string, t: string) => {
      const res = await fetch(`${s.baseUrl(host)}/${version}/${id}/insights?metric=${metric}&access_token=${encodeURIComponent(t)}`);
      return [res.status, ((await res.json()) as { error?: { code: number } }).error?.code ?? null];
    };
    expect(await insights('graph.threads.net', 'v1.0', 'th_post', 'views', token('threads', 'threads_user', 'th1', ['threads_basic', 'threads_content_publish']))).toEqual([403, 10]);
    expect(await insights('graph.threads.net', 'v1.0', 'th_post', 'views', token('threads', 'threads_user', 'th1', ['threads_basic', 'threads_content_publish', 'threads_manage_insights']))).toEqual([200, null]);
    // A page token from /me/accounts carries its user token's grant.
    const pageToken = async (userToken: string) => {
      const res = await fetch(`${s.baseUrl('graph.facebook.com')}/v25.0/me/accounts?access_token=${encodeURIComponent(userToken)}`);
      return ((await res.json()) as { data: Array<{ id: string; access_token: string }> }).data.find((p) => p.id === 'p1')!.access_token;
    };
    const without = await pageToken(token('facebook', 'fb_user', 'fbu', ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts']));
    const withIt = await pageToken(token('facebook', 'fb_user', 'fbu', ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'read_insights']));
    expect(without).not.toBe(withIt);
    expect(await insights('graph.facebook.com', 'v25.0', 'p1_9', 'post_clicks', without)).toEqual([403, 10]);
    expect(await insights('graph.facebook.com', 'v25.0', 'p1_9', 'post_clicks', withIt)).toEqual([200, null]);
  });
});
