import { PLATFORMS as CORE_PLATFORMS, PLATFORM_INFO } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { platformsFromEnv, resolveConfig } from '../../src/config';
import { createAdapters, PLATFORMS, platformModule, simulators, tokenRefreshers } from '../../src/platforms/registry';
import { metaSandbox } from '../../src/platforms/meta/sim/sandbox';
import { createSandboxApp } from '../../src/platforms/sandbox';
import { ManualClock } from '../../src/util/clock';

const caption = (tags: number) => Array.from({ length: tags }, (_, i) => `#tag${i}`).join(' ');
const igInput = (tags: number) => ({ platform: 'instagram' as const, type: 'feed' as const, caption: caption(tags), media: [], publicBaseUrl: null });

describe('the platform registry', () => {
  it('lists each platform of the core table exactly once, each with its own limits', () => {
    expect(PLATFORMS.map((m) => m.platform).sort()).toEqual([...CORE_PLATFORMS].sort());
    for (const m of PLATFORMS) expect(m.limits).toBe(PLATFORM_INFO[m.platform]);
    expect(platformModule('tiktok')?.platform).toBe('tiktok');
  });

  it('serves the one Meta simulator once, beside the X, TikTok, YouTube, Bluesky, Mastodon, LinkedIn and Pinterest ones', () => {
    const factories = simulators();
    expect(factories).toHaveLength(8);
    expect(factories.filter((f) => f === metaSandbox)).toHaveLength(1);
    const hosts = factories.flatMap((f) => f({ store: null, clock: new ManualClock(0) }).hosts);
    expect(new Set(hosts).size).toBe(hosts.length);
    expect(hosts).toEqual(expect.arrayContaining(['graph.facebook.com', 'graph.instagram.com', 'graph.threads.net', 'api.x.com', 'open.tiktokapis.com', 'www.googleapis.com', 'bsky.social', 'video.bsky.app', 'mastodon.social', 'api.linkedin.com', 'www.linkedin.com', 'api.pinterest.com', 'www.pinterest.com']));
  });

  it('mounts every simulator host under the sandbox app', async () => {
    const app = createSandboxApp({ store: null, clock: new ManualClock(0) });
    const statuses = await Promise.all(['/api.x.com/2/users/me', '/www.googleapis.com/youtube/v3/channels?part=id&mine=true', '/graph.facebook.com/v25.0/me', '/open.tiktokapis.com/v2/user/info/', '/bsky.social/xrpc/com.atproto.server.getSession', '/api.linkedin.com/v2/userinfo', '/api.pinterest.com/v5/user_account'].map(async (path) => (await app.request(path)).status));
    // Each simulator is there and refuses a call without a token, as its platform does.
    expect(statuses.every((s) => s === 400 || s === 401 || s === 403)).toBe(true);
    expect((await app.request('/nowhere.example/x')).status).toBe(404);
  });

  it('has a token refresher for every platform whose tokens expire (not Facebook page tokens)', () => {
    expect(tokenRefreshers().map((r) => r.platform).sort()).toEqual(['bluesky', 'instagram', 'linkedin', 'pinterest', 'threads', 'tiktok', 'twitter', 'youtube']);
    // Rotating refresh tokens (OAuth 2.0, Bluesky sessions) are shared in-process; Meta's long-lived tokens are not refresh tokens.
    expect(tokenRefreshers().filter((r) => r.rotating).map((r) => r.platform).sort()).toEqual(['bluesky', 'linkedin', 'pinterest', 'tiktok', 'twitter', 'youtube']);
    expect(platformModule('facebook')?.refresher).toBeNull();
  });
});

describe('platform configuration', () => {
  it('reads the platform settings from the environment once, in resolveConfig', () => {
    expect(
      platformsFromEnv({
        SOCIALPUB_GRAPH_VERSION: 'v26.0',
        SOCIALPUB_INSTAGRAM_MAX_HASHTAGS: '30',
        SOCIALPUB_TIKTOK_PRIVACY_LEVEL: 'MUTUAL_FOLLOW_FRIENDS',
        SOCIALPUB_TIKTOK_AUDITED: '1',
        SOCIALPUB_YOUTUBE_PRIVACY_STATUS: 'unlisted',
      }),
    ).toEqual({ graphVersion: 'v26.0', instagramMaxHashtags: 30, tiktokPrivacyLevel: 'MUTUAL_FOLLOW_FRIENDS', tiktokAudited: true, youtubePrivacyStatus: 'unlisted' });
    expect(platformsFromEnv({ SOCIALPUB_INSTAGRAM_MAX_HASHTAGS: 'lots', SOCIALPUB_TIKTOK_AUDITED: 'yes' })).toEqual({
      graphVersion: undefined,
      instagramMaxHashtags: undefined,
      tiktokPrivacyLevel: undefined,
      tiktokAudited: false,
      youtubePrivacyStatus: undefined,
    });
  });

  it('gives the adapters the configured settings, not whatever process.env holds', () => {
    const previous = process.env.SOCIALPUB_INSTAGRAM_MAX_HASHTAGS;
    process.env.SOCIALPUB_INSTAGRAM_MAX_HASHTAGS = '1';
    try {
      const configured = resolveConfig({ dataDir: '/nonexistent/socialpub-registry-test' }, { SOCIALPUB_INSTAGRAM_MAX_HASHTAGS: '3' });
      const instagram = createAdapters(configured.platforms).get('instagram')!;
      expect(instagram.validate(igInput(3)).filter((p) => /hashtags/.test(p.message))).toEqual([]);
      expect(instagram.validate(igInput(4)).map((p) => p.message)).toContain('Instagram allows at most 3 hashtags per post; this caption has 4.');
      // Defaults (5) when the config says nothing.
      expect(createAdapters().get('instagram')!.validate(igInput(5)).filter((p) => /hashtags/.test(p.message))).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.SOCIALPUB_INSTAGRAM_MAX_HASHTAGS;
      else process.env.SOCIALPUB_INSTAGRAM_MAX_HASHTAGS = previous;
    }
  });
});
