import { describe, expect, it } from 'vitest';
import { API, errorOf, harness, type Harness } from './harness';

const PUBLISH = `${API}/content/publish`;
const VALIDATE = `${API}/content/validate`;
const SCHEDULED = `${API}/content/scheduled`;

const video = (youtube: unknown) => ({ caption: 'Launch', platforms: ['youtube'], media_urls: ['https://cdn.example.com/v.mp4'], scheduled_for: '2026-12-25T10:00:00Z', platform_options: { youtube } });

function setup(): Harness {
  const h = harness();
  h.connect(['youtube']);
  return h;
}

const BAD: [string, unknown, string][] = [
  ['a thumbnail that is not a URL', { thumbnail_url: 'thumb.png' }, 'platform_options.youtube.thumbnail_url'],
  ['an ftp thumbnail', { thumbnail_url: 'ftp://example.com/t.png' }, 'platform_options.youtube.thumbnail_url'],
  ['a thumbnail URL with a password', { thumbnail_url: 'https://me:secret@example.com/t.png' }, 'platform_options.youtube.thumbnail_url'],
  ['a playlist id with spaces', { playlist_id: 'my playlist' }, 'platform_options.youtube.playlist_id'],
  ['a playlist id of one character', { playlist_id: 'P' }, 'platform_options.youtube.playlist_id'],
];

describe('platform_options.youtube thumbnail_url and playlist_id', () => {
  it.each(BAD)('refuses %s with a 400 naming the field (publish, validate, PATCH)', async (_name, youtube, path) => {
    const h = setup();
    const res = await h.call('POST', PUBLISH, { body: video(youtube) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.path)).toContain(path);
    const v = (await (await h.call('POST', VALIDATE, { body: video(youtube) })).json()) as { valid: boolean; errors: { path: string }[] };
    expect([v.valid, v.errors.map((e) => e.path)]).toEqual([false, [path]]);
    const ok = await h.call('POST', PUBLISH, { body: video({}) });
    const { job_id } = (await ok.json()) as { job_id: string };
    const patch = await h.call('PATCH', `${SCHEDULED}?job_id=${job_id}`, { body: { platform_options: { youtube } } });
    expect(patch.status).toBe(400);
    expect((await errorOf(patch)).details?.map((d) => d.path)).toContain(path);
  });

  it('stores valid ones, and the target shows the post steps its checkpoint records (unknown for a sent insert), also under the deprecated follow_ups', async () => {
    const h = setup();
    const youtube = { thumbnail_url: 'https://cdn.example.com/thumb.jpg', playlist_id: 'PLabcDEF123_-x' };
    const res = await h.call('POST', PUBLISH, { body: video(youtube) });
    expect(res.status).toBe(200);
    const { job_id } = (await res.json()) as { job_id: string };
    const show = async () => ((await (await h.call('GET', `${SCHEDULED}?job_id=${job_id}`)).json()) as { post: { platform_options: unknown; targets: Record<string, unknown>[] } }).post;
    expect((await show()).platform_options).toEqual({ youtube });
    expect((await show()).targets[0]).not.toHaveProperty('post_steps');
    expect((await show()).targets[0]).not.toHaveProperty('follow_ups');
    h.db.prepare("UPDATE targets SET status = 'published', checkpoint = ? WHERE job_id = ?").run(
      JSON.stringify({ videoId: 'abcdefghijk', followUps: { thumbnail: { status: 'failed', error: 'the thumbnail URL answered 404 Not Found' }, playlist: { status: 'requested' } } }),
      job_id,
    );
    const steps = { thumbnail: { status: 'failed', error: 'the thumbnail URL answered 404 Not Found' }, playlist: { status: 'unknown' } };
    const target = (await show()).targets[0]!;
    expect(target.post_steps).toEqual(steps);
    // The deprecated alias carries the same value, so a receiver written against it keeps working.
    expect(target.follow_ups).toEqual(steps);
  });
});
