import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, prepareMedia, PUBLIC, publish, serveSamples, settled, startSandboxDaemon, targetsOf, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();

/** The sandbox connection's boards, as GET /platforms lists them. */
async function boardsOf(w: SandboxDaemon): Promise<{ page: string; boards: Array<{ id: string; name: string }> }> {
  const res = await w.call('GET', '/platforms');
  const conn = (res.body.platforms as Array<{ platform: string; connection: { page: string; boards?: Array<{ id: string; name: string }> } | null }>).find((p) => p.platform === 'pinterest')!.connection!;
  return { page: conn.page, boards: conn.boards! };
}

describe('Pinterest through the daemon and its sandbox', () => {
  it('GET /platforms lists the connection\'s two boards; an image pin goes to the chosen one, then is taken down', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['pinterest'] });
    const { page, boards } = await boardsOf(w);
    expect(boards.map((b) => b.name)).toEqual(['Inspiration', 'Products']);
    expect(boards.every((b) => /^\d+$/.test(b.id))).toBe(true);
    expect(page).toBe('Inspiration');
    const listing = await w.call('GET', '/platforms');
    const entry = (listing.body.platforms as Array<{ platform: string; types: string[]; default_type: string; caption: { max: number }; options: { properties: Record<string, unknown> } }>).find((p) => p.platform === 'pinterest')!;
    expect(entry).toMatchObject({ types: ['pin', 'video_pin'], default_type: 'pin', caption: { max: 500 } });
    expect(Object.keys(entry.options.properties).sort()).toEqual(['alt_text', 'board_id', 'cover_image_url', 'cover_key_frame_sec', 'link', 'title']);
    // The OpenAPI document carries the same options schema and the connection's boards.
    const doc = (await w.call('GET', '/openapi.json')).body as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(Object.keys(doc.components.schemas.PinterestOptions!.properties!).sort()).toEqual(Object.keys(entry.options.properties).sort());
    expect(JSON.stringify(doc.components.schemas.ConnectionInfo!.properties!.boards)).toMatch(/"id".*"name"/);
    expect(Object.keys(doc.components.schemas.PlatformOptions!.properties!)).toContain('pinterest');

    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const job = await publish(w, { caption: 'Sand-coloured linen, new this week', platforms: ['pinterest'], media_urls: [image], publish_now: true, platform_options: { pinterest: { title: 'Linen', link: 'https://shop.example/linen' } } });
    await advanceUntil(w.clock, settled(w, job), 300);
    const [t] = targetsOf(w, job);
    expect(t).toMatchObject({ platform: 'pinterest', status: 'published', error_message: null });
    const [pin] = listSandboxPosts(w.db, { platform: 'pinterest' });
    expect(pin!.postId).toBe(t!.post_id);
    expect(t!.post_url).toBe(`https://www.pinterest.com/pin/${t!.post_id}/`);
    expect(pin!.body).toMatchObject({ board_id: boards[0]!.id, board: 'Inspiration', title: 'Linen', text: 'Sand-coloured linen, new this week', link: 'https://shop.example/linen' });
    // The daemon has a public base URL: Pinterest is given the prepared file's URL to fetch.
    expect(pin!.body.media).toEqual([expect.objectContaining({ kind: 'image', url: expect.stringMatching(new RegExp(`^${PUBLIC}/`)) })]);

    const down = await w.call('POST', `/content/scheduled/unpublish?job_id=${job}`);
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect((down.body.targets as Array<Record<string, unknown>>).map((x) => [x.platform, x.result, x.status])).toEqual([['pinterest', 'removed', 'removed']]);
    expect(listSandboxPosts(w.db, { platform: 'pinterest' })[0]!.removedAt).toBe(w.clock.now());
  }, 60_000);

  it('publishes scheduled, staggered and approved pins at their times, one to another board', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['pinterest', 'twitter'] });
    const { boards } = await boardsOf(w);
    const base = await serveSamples(defer);
    const image = await prepareMedia(w, `${base}/a.jpg`);
    const second = await prepareMedia(w, `${base}/b.jpg`);
    const at = new Date(w.clock.now() + 3_600_000).toISOString();

    const staggered = await publish(w, {
      caption: 'Staggered: X first, Pinterest an hour later',
      platforms: ['twitter', 'pinterest'],
      media_urls: [image, second],
      scheduled_for: at,
      type_schedule: { pinterest: '+1h' },
      platform_options: { pinterest: { board_id: boards[1]!.id } },
    });
    const approved = await publish(w, { caption: 'Needs a yes first', platforms: ['pinterest'], media_urls: [image], scheduled_for: at, require_approval: true });
    expect(targetsOf(w, approved)[0]!.status).toBe('pending_approval');
    expect((await w.call('POST', `/content/scheduled/approve?job_id=${approved}`)).status).toBe(200);

    await w.clock.advance(3_600_000 - 5_000);
    await advanceUntil(w.clock, () => targetsOf(w, staggered).some((t) => t.status === 'published') && settled(w, approved)(), 120);
    expect(targetsOf(w, staggered).map((r) => [r.platform, r.status])).toEqual([['pinterest', 'scheduled'], ['twitter', 'published']]);
    await w.clock.advance(3_600_000 - 60_000);
    await advanceUntil(w.clock, settled(w, staggered), 180);
    const rows = targetsOf(w, staggered);
    expect(rows.map((r) => [r.platform, r.status])).toEqual([['pinterest', 'published'], ['twitter', 'published']]);
    expect(rows[0]!.published_at! - rows[1]!.published_at!).toBeGreaterThanOrEqual(3_600_000 - 10_000);
    expect(targetsOf(w, approved)[0]!.status).toBe('published');
    const made = listSandboxPosts(w.db, { platform: 'pinterest' });
    expect(made.map((p) => [p.body.text, p.body.board, p.kind])).toEqual([
      ['Needs a yes first', 'Inspiration', 'pin'],
      ['Staggered: X first, Pinterest an hour later', 'Products', 'carousel'],
    ]);
  }, 120_000);

  it('makes a video pin through the daemon: media registered, uploaded to the URL under /sandbox, processed, pinned with its cover', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['pinterest'] });
    const video = await prepareMedia(w, `${await serveSamples(defer)}/clip.mp4`);
    const job = await publish(w, { caption: 'How we dye linen', platforms: ['pinterest'], platform_types: { pinterest: ['video_pin'] }, media_urls: [video], publish_now: true, platform_options: { pinterest: { cover_key_frame_sec: 2 } } });
    await advanceUntil(w.clock, settled(w, job), 300);
    const [t] = targetsOf(w, job);
    expect(t).toMatchObject({ platform: 'pinterest', status: 'published', error_message: null });
    const [pin] = listSandboxPosts(w.db, { platform: 'pinterest' });
    expect(pin).toMatchObject({ postId: t!.post_id, kind: 'video_pin' });
    expect(pin!.body).toMatchObject({ text: 'How we dye linen', media: [{ kind: 'video', cover: 2, id: expect.stringMatching(/^\d+$/) }] });
  }, 60_000);

  it('refuses bad input with a 400 naming the field and stores nothing', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['pinterest'] });
    const jobs = () => (w.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const refused = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { platforms: ['pinterest'], publish_now: true, media_urls: [image], ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return ((res.body.error as { details: Array<{ path: string; message: string }> }).details ?? []).map((d) => [d.path, d.message]);
    };
    expect(await refused({ caption: 'hello', platform_options: { pinterest: { board_id: '123456' } } })).toEqual([
      ['platform_options.pinterest.board_id', expect.stringContaining("board 123456 is not one of the connected Pinterest account's boards")],
    ]);
    expect(await refused({ caption: 'hello', platform_options: { pinterest: { board_id: 'my-board' } } })).toEqual([['platform_options.pinterest.board_id', expect.stringContaining('board id (digits)')]]);
    expect(await refused({ caption: 'x'.repeat(501) })).toEqual([['caption', expect.stringMatching(/501.*500|500.*501/)]]);
    expect(await refused({ caption: 'hello', platform_options: { pinterest: { title: 't'.repeat(101) } } })).toEqual([['platform_options.pinterest.title', 'title is at most 100 characters']]);
    expect(await refused({ caption: 'hello', platform_options: { pinterest: { alt_text: 'a'.repeat(501) } } })).toEqual([['platform_options.pinterest.alt_text', 'alt_text is at most 500 characters']]);
    expect(await refused({ caption: 'hello', platform_options: { pinterest: { link: `https://shop.example/${'p'.repeat(2048)}` } } })).toEqual([['platform_options.pinterest.link', 'link is at most 2048 characters']]);
    const video = await prepareMedia(w, `${await serveSamples(defer)}/clip.mp4`);
    expect(await refused({ caption: 'a video', media_urls: [video], platform_types: { pinterest: ['video_pin'] } })).toEqual([
      ['platform_options.pinterest.cover_image_url', expect.stringContaining('needs a cover image')],
    ]);
    expect(await refused({ caption: 'no image', media_urls: [] }).then((d) => d.map(([p]) => p))).toEqual(['media_urls']);
    expect(jobs()).toBe(0);
    expect(listSandboxPosts(w.db)).toEqual([]);
  }, 60_000);
});
