import { describe, expect, it } from 'vitest';
import { useCleanups } from '../support/cleanups';
import { startSandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();

describe('GET /platforms/tiktok/creator-info', () => {
  it("answers the creator's privacy levels and interaction settings from TikTok (here the simulator)", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['tiktok'] });
    const res = await w.call('GET', '/platforms/tiktok/creator-info');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      creator_info: {
        creator_username: expect.any(String),
        creator_nickname: expect.any(String),
        creator_avatar_url: 'https://p16.tiktokcdn.com/sandbox.jpeg',
        // The sandbox creator's account is private: no PUBLIC_TO_EVERYONE.
        privacy_level_options: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
        comment_disabled: false,
        duet_disabled: false,
        stitch_disabled: true,
        max_video_post_duration_sec: 600,
      },
    });
  });

  it('answers for the TikTok account ?label= names (several accounts of one network), the default one without, and 403 for a label not connected', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['tiktok'] });
    const brand = w.admin.addSandboxConnection('tiktok', { email: 'me@example.com', label: 'brand' });
    const main = w.admin.listConnections().find((c) => c.platform === 'tiktok' && c.label === 'default')!;
    type Info = { creator_info: { creator_username: string } };
    const own = await w.call('GET', '/platforms/tiktok/creator-info');
    const branded = await w.call('GET', '/platforms/tiktok/creator-info?label=brand');
    expect([own.status, branded.status]).toEqual([200, 200]);
    const names = [(own.body as Info).creator_info.creator_username, (branded.body as Info).creator_info.creator_username];
    expect(names[0]).not.toBe(names[1]);
    // Each connection is its own simulated creator.
    expect(names[1]).toMatch(/^sandbox_tiktok_\d+$/);
    expect(brand.account_id).not.toBe(main.account_id);

    const none = await w.call('GET', '/platforms/tiktok/creator-info?label=nobody');
    expect(none.status).toBe(403);
    expect(none.body.error).toMatchObject({
      code: 'platform_not_connected',
      message: 'you have no tiktok account labelled nobody (connect one with: socialpub connect tiktok --label nobody)',
      details: [{ path: 'label', platform: 'tiktok' }],
    });
    const bad = await w.call('GET', '/platforms/tiktok/creator-info?label=Not%20A%20Label');
    expect(bad.status).toBe(400);
  });

  it('is 403 platform_not_connected without a TikTok connection', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const res = await w.call('GET', '/platforms/tiktok/creator-info');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'platform_not_connected', details: [{ path: 'platform', platform: 'tiktok' }] });
  });
});
