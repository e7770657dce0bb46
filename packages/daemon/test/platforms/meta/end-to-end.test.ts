import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();
const world = () => startSandboxDaemon(defer, { platforms: ['instagram', 'facebook', 'threads'] });

describe('publishing to the Meta sandbox through the daemon', () => {
  it('publishes an instagram story now and a feed post a minute later, facebook and threads, each with the simulator post id and URL', async () => {
    const w = await world();
    const prepared = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);

    const now = new Date(w.clock.now()).toISOString();
    const pub = await w.call('POST', '/content/publish', {
      caption: 'Launch day',
      platforms: ['instagram', 'facebook', 'threads'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: [prepared],
      scheduled_for: now,
      type_schedule: { 'instagram.story': '+0m', 'instagram.feed': '+1m' },
    });
    expect(pub.status).toBeLessThan(300);

    const targets = () =>
      w.db.prepare('SELECT platform, type, status, due_at, post_id, post_url, error_message FROM targets ORDER BY platform, type').all() as {
        platform: string;
        type: string;
        status: string;
        due_at: number;
        post_id: string | null;
        post_url: string | null;
        error_message: string | null;
      }[];
    const start = w.clock.now();
    await advanceUntil(w.clock, () => targets().every((t) => t.status === 'published' || t.status === 'failed' || t.status === 'needs_review'), 600);
    const rows = targets();
    expect(rows.map((t) => [t.platform, t.type, t.status, t.error_message])).toEqual([
      ['facebook', 'feed', 'published', null],
      ['instagram', 'feed', 'published', null],
      ['instagram', 'story', 'published', null],
      ['threads', 'post', 'published', null],
    ]);
    expect(rows.find((t) => t.type === 'feed' && t.platform === 'instagram')!.due_at).toBe(start + 60_000);
    const posts = listSandboxPosts(w.db);
    expect(posts).toHaveLength(4);
    for (const t of rows) {
      const post = posts.find((p) => p.postId === t.post_id);
      expect(post, `${t.platform} ${t.type}`).toBeDefined();
      expect(t.post_url).toBe(post!.postUrl);
    }
    // The story went out before the feed post, a minute apart at least.
    const story = posts.find((p) => p.kind === 'story')!;
    const feed = posts.find((p) => p.platform === 'instagram' && p.kind === 'feed')!;
    expect(feed.createdAt - story.createdAt).toBeGreaterThanOrEqual(60_000 - 20_000);
    expect(story.body).toMatchObject({ media: [prepared] });
  });

  it('fails a target whose connection was removed before it fell due with platform_not_connected', async () => {
    const w = await world();
    const later = new Date(w.clock.now() + 10 * 60_000).toISOString();
    const pub = await w.call('POST', '/content/publish', { caption: 'Later', platforms: ['threads'], scheduled_for: later });
    expect(pub.status).toBeLessThan(300);
    w.admin.removeConnection('threads', { email: 'me@example.com' });
    await advanceUntil(w.clock, () => false, 11, 60_000);
    const row = w.db.prepare('SELECT status, error_code FROM targets').get() as { status: string; error_code: string };
    expect(row).toEqual({ status: 'failed', error_code: 'platform_not_connected' });
    expect(listSandboxPosts(w.db)).toEqual([]);
  });
});
