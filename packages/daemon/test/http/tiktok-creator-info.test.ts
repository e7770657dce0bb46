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

  it('is 403 platform_not_connected without a TikTok connection', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const res = await w.call('GET', '/platforms/tiktok/creator-info');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'platform_not_connected', details: [{ path: 'platform', platform: 'tiktok' }] });
  });
});
