import { TiktokOptionsSchema, YoutubeOptionsSchema } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { API, errorOf, harness, type Harness } from './harness';

const PUBLISH = `${API}/content/publish`;
const VALIDATE = `${API}/content/validate`;
const SCHEDULED = `${API}/content/scheduled`;
const VIDEO = 'https://cdn.example.com/clip.mp4';

const video = (platforms: string[], extra: Record<string, unknown> = {}) => ({
  caption: 'Launch day\nwhat shipped',
  platforms,
  media_urls: [VIDEO],
  scheduled_for: '2026-12-25T10:00:00Z',
  ...extra,
});

function setup(): Harness {
  const h = harness();
  h.connect(['youtube', 'tiktok', 'twitter']);
  return h;
}

async function refused(h: Harness, path: string, body: unknown, method = 'POST') {
  const res = await h.call(method, path, { body });
  expect(res.status).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe('invalid_request');
  return e.details?.map((d) => d.path) ?? [];
}

async function publish(h: Harness, body: unknown): Promise<string> {
  const res = await h.call('POST', PUBLISH, { body });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function post(h: Harness, jobId: string): Promise<{ platform_options: Record<string, unknown> }> {
  const res = await h.call('GET', `${SCHEDULED}?job_id=${jobId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { post: { platform_options: Record<string, unknown> } }).post;
}

describe('platform_options in POST /content/publish', () => {
  it('stores the options as given and shows them on the post; without them the post has {}', async () => {
    const h = setup();
    const options = {
      youtube: { title: 'Launch day, the full story', privacy_status: 'unlisted', tags: ['launch'], category_id: '28', made_for_kids: false, notify_subscribers: false },
      tiktok: { privacy_level: 'SELF_ONLY', disable_comment: true, is_aigc: true, video_cover_timestamp_ms: 1000 },
    };
    const id = await publish(h, video(['youtube', 'tiktok'], { platform_options: options }));
    expect((await post(h, id)).platform_options).toEqual(options);
    const plain = await publish(h, video(['youtube']));
    expect((await post(h, plain)).platform_options).toEqual({});
  });

  it('answers 400 naming the field for each invalid option', async () => {
    const h = setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ youtube: { title: 'x'.repeat(101) } }, 'platform_options.youtube.title'],
      [{ youtube: { title: 'a <b> title' } }, 'platform_options.youtube.title'],
      [{ youtube: { description: 'é'.repeat(2501) } }, 'platform_options.youtube.description'],
      [{ youtube: { privacy_status: 'friends' } }, 'platform_options.youtube.privacy_status'],
      [{ youtube: { tags: Array.from({ length: 60 }, (_, i) => `tag number ${i}`) } }, 'platform_options.youtube.tags'],
      [{ youtube: { category_id: 'music' } }, 'platform_options.youtube.category_id'],
      [{ youtube: { made_for_kids: 'yes' } }, 'platform_options.youtube.made_for_kids'],
      [{ youtube: { thumbnail: 'x' } }, 'platform_options.youtube.thumbnail'],
      [{ tiktok: { privacy_level: 'EVERYONE' } }, 'platform_options.tiktok.privacy_level'],
      [{ tiktok: { brand_content_toggle: true, privacy_level: 'SELF_ONLY' } }, 'platform_options.tiktok.privacy_level'],
      [{ tiktok: { video_cover_timestamp_ms: -1 } }, 'platform_options.tiktok.video_cover_timestamp_ms'],
      [{ tiktok: { video_cover_timestamp_ms: 1.5 } }, 'platform_options.tiktok.video_cover_timestamp_ms'],
      [{ tiktok: { disable_duet: 1 } }, 'platform_options.tiktok.disable_duet'],
    ];
    for (const [platform_options, path] of cases) {
      expect(await refused(h, PUBLISH, video(['youtube', 'tiktok'], { platform_options })), JSON.stringify(platform_options)).toContain(path);
    }
    expect(await refused(h, PUBLISH, video(['youtube'], { platform_options: { tiktok: { is_aigc: true } } }))).toContain('platform_options.tiktok');
    expect(await refused(h, PUBLISH, video(['youtube'], { platform_options: { myspace: {} } }))).toContain('platform_options.myspace');
    expect(h.store.jobs.list(h.user.id, { status: 'all', limit: 10, after: null }).jobs).toEqual([]);
  });

  it('/content/validate reports the same option errors without storing', async () => {
    const h = setup();
    const res = await h.call('POST', VALIDATE, { body: video(['youtube'], { platform_options: { youtube: { title: '' } } }) });
    const body = (await res.json()) as { valid: boolean; errors: { path: string; message: string }[] };
    expect(body.valid).toBe(false);
    expect(body.errors.map((e) => [e.path, e.message])).toEqual([['platform_options.youtube.title', 'title must not be empty']]);
    const ok = await h.call('POST', VALIDATE, { body: video(['youtube'], { platform_options: { youtube: { title: 'Fine' } } }) });
    expect(((await ok.json()) as { valid: boolean }).valid).toBe(true);
  });
});

describe('platform_options in PATCH /content/scheduled', () => {
  it('replaces the options of the platforms it names and keeps the others', async () => {
    const h = setup();
    const id = await publish(h, video(['youtube', 'tiktok'], { platform_options: { youtube: { title: 'Old' }, tiktok: { is_aigc: true } } }));
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { platform_options: { youtube: { title: 'New', privacy_status: 'private' } } } });
    expect(res.status).toBe(200);
    expect((await post(h, id)).platform_options).toEqual({ youtube: { title: 'New', privacy_status: 'private' }, tiktok: { is_aigc: true } });
  });

  it('refuses invalid options, a platform the job lacks, and a platform whose targets have started', async () => {
    const h = setup();
    const id = await publish(h, video(['youtube', 'tiktok']));
    expect(await refused(h, `${SCHEDULED}?job_id=${id}`, { platform_options: { youtube: { title: 'x'.repeat(101) } } }, 'PATCH')).toEqual(['platform_options.youtube.title']);
    const tw = await publish(h, { caption: 'hi', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z' });
    expect(await refused(h, `${SCHEDULED}?job_id=${tw}`, { platform_options: { youtube: { title: 'x' } } }, 'PATCH')).toEqual(['platform_options.youtube']);

    h.db.prepare("UPDATE targets SET status = 'publishing' WHERE job_id = ? AND platform = 'youtube'").run(id);
    expect(await refused(h, `${SCHEDULED}?job_id=${id}`, { platform_options: { youtube: { title: 'Late' } } }, 'PATCH')).toEqual(['platform_options.youtube']);
    expect((await post(h, id)).platform_options).toEqual({});
  });
});

describe('GET /platforms: options as JSON Schema', () => {
  it('carries the JSON Schema of each platform with options, generated from the core schemas', async () => {
    const h = setup();
    const res = await h.call('GET', `${API}/platforms`);
    const body = (await res.json()) as { platforms: { platform: string; options: Record<string, unknown> | null }[] };
    const of = (p: string) => body.platforms.find((x) => x.platform === p)!.options;
    const yt = of('youtube') as { title: string; type: string; additionalProperties: boolean; properties: Record<string, { type?: string; enum?: string[]; description?: string }> };
    expect(yt.title).toBe('YoutubeOptions');
    expect(yt.type).toBe('object');
    expect(yt.additionalProperties).toBe(false);
    expect(Object.keys(yt.properties)).toEqual(Object.keys(YoutubeOptionsSchema.shape));
    expect(yt.properties.privacy_status!.enum).toEqual(['public', 'unlisted', 'private']);
    expect(yt.properties.title!.description).toMatch(/at most 100 characters/);
    const tt = of('tiktok') as { properties: Record<string, { enum?: string[]; type?: string }> };
    expect(Object.keys(tt.properties)).toEqual(Object.keys(TiktokOptionsSchema.shape));
    expect(tt.properties.privacy_level!.enum).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
    expect(tt.properties.video_cover_timestamp_ms!.type).toBe('integer');
  });
});

describe('unknown option fields (issue 28: the path named only the platform)', () => {
  it('are a 400 whose details name each unknown field, from publish, validate and PATCH', async () => {
    const h = setup();
    const body = video(['youtube', 'tiktok'], { platform_options: { youtube: { title: 'T', thumbnial: 'x', made_for_kid: true }, tiktok: { privacy: 'x' } } });
    const res = await h.call('POST', PUBLISH, { body });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.message).toBe('platform_options.youtube.thumbnial: "thumbnial" is not a known field of platform_options.youtube');
    expect(e.details).toEqual([
      { path: 'platform_options.youtube.thumbnial', message: '"thumbnial" is not a known field of platform_options.youtube' },
      { path: 'platform_options.youtube.made_for_kid', message: '"made_for_kid" is not a known field of platform_options.youtube' },
      { path: 'platform_options.tiktok.privacy', message: '"privacy" is not a known field of platform_options.tiktok' },
    ]);
    const validated = (await (await h.call('POST', VALIDATE, { body })).json()) as { valid: boolean; errors: { path: string }[] };
    expect(validated.valid).toBe(false);
    expect(validated.errors.map((d) => d.path)).toEqual(['platform_options.youtube.thumbnial', 'platform_options.youtube.made_for_kid', 'platform_options.tiktok.privacy']);
    const jobId = await publish(h, video(['youtube']));
    expect(await refused(h, `${SCHEDULED}?job_id=${jobId}`, { platform_options: { youtube: { tagz: ['a'] } } }, 'PATCH')).toEqual(['platform_options.youtube.tagz']);
    // An unknown platform under platform_options is named the same way.
    expect(await refused(h, PUBLISH, video(['youtube'], { platform_options: { myspace: {} } }))).toEqual(['platform_options.myspace']);
  });
});
