import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon } from '../../support/sandbox-daemon';

const defer = useCleanups();

describe('platform_options through the daemon to the Meta sandbox', () => {
  it('each option reaches its simulator, and GET /sandbox/posts shows what the platform received', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['instagram', 'facebook', 'threads'] });
    const prepared = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const pub = await w.call('POST', '/content/publish', {
      caption: 'Launch day',
      platforms: ['instagram', 'facebook', 'threads'],
      platform_types: { instagram: ['feed', 'story'] },
      media_urls: [prepared],
      publish_now: true,
      platform_options: {
        // collaborators, location and alt text fit the feed post only: the story goes out without them.
        instagram: { collaborators: ['natgeo'], location_id: '110843418940484', user_tags: [{ username: 'nasa', x: 0.25, y: 0.75 }], alt_text: 'A pier at dawn' },
        facebook: { place: '110843418940484' },
        threads: { reply_control: 'accounts_you_follow', topic_tag: 'Launch', quote_post_id: '17890012345678901' },
      },
    });
    expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);
    const statuses = () => w.db.prepare('SELECT platform, type, status, error_message FROM targets ORDER BY platform, type').all() as { platform: string; type: string; status: string; error_message: string | null }[];
    await advanceUntil(w.clock, () => statuses().every((t) => !['scheduled', 'publishing', 'retrying', 'queued'].includes(t.status)), 600);
    expect(statuses().map((t) => [t.platform, t.type, t.status, t.error_message])).toEqual([
      ['facebook', 'feed', 'published', null],
      ['instagram', 'feed', 'published', null],
      ['instagram', 'story', 'published', null],
      ['threads', 'post', 'published', null],
    ]);

    const listed = await w.call('GET', '/sandbox/posts');
    const posts = listed.body.posts as { platform: string; kind: string; body: Record<string, unknown> }[];
    const of = (platform: string, kind: string) => posts.find((p) => p.platform === platform && p.kind === kind)!.body;
    expect(of('instagram', 'feed').options).toEqual({ collaborators: ['natgeo'], location_id: '110843418940484', user_tags: [{ username: 'nasa', x: 0.25, y: 0.75 }], alt_text: 'A pier at dawn' });
    expect(of('instagram', 'story').options).toEqual({ user_tags: [{ username: 'nasa', x: 0.25, y: 0.75 }] });
    expect(of('facebook', 'photo').options).toEqual({ place: '110843418940484' });
    expect(of('threads', 'image').options).toEqual({ reply_control: 'accounts_you_follow', topic_tag: 'Launch', quote_post_id: '17890012345678901' });
  });
});
