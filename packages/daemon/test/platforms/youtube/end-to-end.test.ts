import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import { createYoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, JPEG, MP4, prepareMedia as prepare, serveSamples, startSandboxDaemon, type SandboxDaemonOptions } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();
const world = (simulators?: SandboxDaemonOptions['simulators'], start?: number) => startSandboxDaemon(defer, { platforms: ['twitter', 'tiktok', 'youtube'], simulators, start });
const origin = () => serveSamples(defer);

describe('publishing to the X, TikTok and YouTube sandboxes through the daemon', () => {
  it('publishes a tweet with an image, a text tweet, a TikTok video and a YouTube video and Short, each with the simulator post id and URL', async () => {
    const w = await world();
    const src = await origin();
    const image = await prepare(w, `${src}/photo.jpg`);
    const video = await prepare(w, `${src}/clip.mp4`);

    const publish = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    };
    await publish({ caption: 'Launch day, with a picture', platforms: ['twitter'], media_urls: [image] });
    await publish({ caption: 'Launch day in words only', platforms: ['twitter'] });
    await publish({ caption: 'Launch day\nThe whole story in a minute #launch', platforms: ['tiktok', 'youtube'], platform_types: { youtube: ['video', 'shorts'] }, media_urls: [video] });

    const targets = () =>
      w.db.prepare('SELECT platform, type, status, post_id, post_url, error_message FROM targets ORDER BY platform, id').all() as {
        platform: string;
        type: string;
        status: string;
        post_id: string | null;
        post_url: string | null;
        error_message: string | null;
      }[];
    await advanceUntil(w.clock, () => targets().every((t) => ['published', 'failed', 'needs_review'].includes(t.status)), 600);
    const rows = targets();
    expect(rows.map((t) => [t.platform, t.type, t.status, t.error_message]).sort()).toEqual([
      ['tiktok', 'video', 'published', null],
      ['twitter', 'tweet', 'published', null],
      ['twitter', 'tweet', 'published', null],
      ['youtube', 'shorts', 'published', null],
      ['youtube', 'video', 'published', null],
    ]);
    const posts = listSandboxPosts(w.db);
    expect(posts).toHaveLength(5);
    for (const t of rows) {
      const post = posts.find((p) => p.platform === t.platform && p.postId === t.post_id);
      expect(post, `${t.platform} ${t.post_id}`).toBeDefined();
      // A Short is the same upload; its link is the /shorts/ form of the simulator's watch URL.
      expect(t.post_url).toBe(t.type === 'shorts' ? post!.postUrl!.replace('watch?v=', 'shorts/') : post!.postUrl);
    }
    const tweets = posts.filter((p) => p.platform === 'twitter');
    expect(tweets.map((p) => p.body.text).sort()).toEqual(['Launch day in words only', 'Launch day, with a picture']);
    expect(tweets.find((p) => p.body.text === 'Launch day, with a picture')!.body.media).toEqual([expect.objectContaining({ category: 'tweet_image', type: 'image/jpeg', bytes: JPEG.length })]);
    expect(posts.find((p) => p.platform === 'tiktok')!.body).toMatchObject({ source: 'FILE_UPLOAD', video_size: MP4.length, privacy_level: 'SELF_ONLY' });
    expect(posts.filter((p) => p.platform === 'youtube')).toHaveLength(2);
    expect(posts.find((p) => p.platform === 'youtube')!.body).toMatchObject({ bytes: MP4.length, snippet: { title: 'Launch day', tags: ['launch'] } });
  });
});

describe('sandbox connections past their token expiry', () => {
  it('refresh against the simulators without app credentials and keep publishing', async () => {
    const w = await world();
    // Sandbox tokens from the admin last 60 days: make this one due, as if those days had passed.
    w.db.prepare("UPDATE connections SET token_expires_at = ? WHERE platform = 'twitter'").run(w.clock.now() - 1);
    const res = await w.call('POST', '/content/publish', { publish_now: true, caption: 'Still here', platforms: ['twitter'] });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const row = () => w.db.prepare('SELECT status, error_message FROM targets').get() as { status: string; error_message: string | null };
    await advanceUntil(w.clock, () => ['published', 'failed', 'needs_review'].includes(row().status), 60);
    expect(row()).toEqual({ status: 'published', error_message: null });
    const conn = w.db.prepare("SELECT status, token_expires_at FROM connections WHERE platform = 'twitter'").get() as { status: string; token_expires_at: number };
    expect(conn.status).toBe('active');
    expect(conn.token_expires_at).toBeGreaterThan(w.clock.now());
  });
});

describe('the YouTube upload quota', () => {
  it('reschedules a target refused with quotaExceeded to midnight Pacific and publishes it then', async () => {
    let sim: ReturnType<typeof createYoutubeSimulator> | undefined;
    const w = await world([
      (deps) => {
        sim = createYoutubeSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), insertsPerDay: 0 });
        const app = new Hono();
        for (const { host, app: a } of sim.apps) app.route(`/${host}`, a);
        return { hosts: sim.apps.map((a) => a.host), app };
      },
    ], Date.UTC(2026, 11, 26, 7, 58));
    const video = await prepare(w, `${await origin()}/q.mp4`);
    const res = await w.call('POST', '/content/publish', { publish_now: true, caption: 'Over quota', platforms: ['youtube'], media_urls: [video] });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const row = () => w.db.prepare('SELECT status, next_attempt_at, platform_code, post_id FROM targets').get() as { status: string; next_attempt_at: number | null; platform_code: string | null; post_id: string | null };
    await advanceUntil(w.clock, () => row().platform_code !== null, 30);
    // 23:58 PST on the 25th: the quota resets at midnight Pacific, 08:00 UTC on the 26th.
    const reset = Date.UTC(2026, 11, 26, 8);
    expect(row()).toMatchObject({ status: 'scheduled', next_attempt_at: reset, platform_code: 'quotaExceeded' });
    sim!.settings.insertsPerDay = 100;
    await w.clock.advance(reset - w.clock.now() + 1_000);
    await advanceUntil(w.clock, () => row().status === 'published', 30);
    expect(row().status).toBe('published');
    expect(listSandboxPosts(w.db, { platform: 'youtube' }).map((p) => p.postId)).toEqual([row().post_id]);
  });
});
