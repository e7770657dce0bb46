import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/platforms/sandbox';
import { startSandboxOrigins, type SandboxOrigins } from '../../../src/platforms/sandbox-origins';
import { pinterestSandbox } from '../../../src/platforms/pinterest/sim/sandbox';
import { ManualClock } from '../../../src/util/clock';
import { fakeBytes } from '../shared/harness';

/**
 * The requests of Pinterest's own documentation, sent with plain HTTP (fetch) the way its
 * examples write them (developers.pinterest.com/docs: "Set up authentication and
 * authorization", "Pin creation" with image URL, Base64 and carousels, "Video Pins"
 * through media upload, and the v5 reference for boards and pins), against the simulator
 * at its own loopback origins (as `socialpub sandbox endpoints` lists them).
 */
let origins: SandboxOrigins;
let clock: ManualClock;
let api: string;
let www: string;

beforeEach(async () => {
  clock = new ManualClock();
  const sandbox = createSandbox({ store: null, clock }, [pinterestSandbox]);
  origins = await startSandboxOrigins(sandbox.app, sandbox.hosts);
  api = origins.endpoints['api.pinterest.com']!;
  www = origins.endpoints['www.pinterest.com']!;
});
afterEach(() => origins.close());

const basic = `Basic ${Buffer.from('1484362:s3cr3tKey').toString('base64')}`;
const redirect = 'https://shop.example/pinterest/callback';

async function signIn(): Promise<{ access_token: string; refresh_token: string }> {
  const authorize = await fetch(`${www}/oauth/?client_id=1484362&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&scope=boards:read,pins:read,pins:write,user_accounts:read&state=st4te`, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(redirect);
  expect(back.searchParams.get('state')).toBe('st4te');
  const res = await fetch(`${api}/v5/oauth/token`, {
    method: 'POST',
    headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `grant_type=authorization_code&code=${back.searchParams.get('code')}&redirect_uri=${encodeURIComponent(redirect)}`,
  });
  expect(res.status).toBe(200);
  const token = (await res.json()) as { access_token: string; refresh_token: string; token_type: string; expires_in: number; refresh_token_expires_in: number; scope: string; response_type: string };
  expect(token).toMatchObject({ token_type: 'bearer', expires_in: 2_592_000, refresh_token_expires_in: 31_536_000, scope: 'boards:read,pins:read,pins:write,user_accounts:read', response_type: 'authorization_code' });
  return token;
}

const json = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

describe('Pinterest documented request shapes against the simulator', () => {
  it('token exchange (and refresh), list boards, a pin from bytes and from a URL, a carousel, read back, delete', async () => {
    const { access_token: token, refresh_token } = await signIn();

    // The refresh: the same endpoint, grant_type=refresh_token, the app in HTTP Basic.
    const refreshed = await fetch(`${api}/v5/oauth/token`, { method: 'POST', headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=${refresh_token}` });
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as { response_type: string }).response_type).toBe('refresh_token');
    // Without the app's Basic credentials: refused in Pinterest's shape.
    const anonymous = await fetch(`${api}/v5/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=${refresh_token}` });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: 2, message: expect.stringContaining('Authentication failed') });

    // GET /v5/boards: the simulated account's two boards, with rate-limit headers.
    const boardsRes = await fetch(`${api}/v5/boards`, { headers: { Authorization: `Bearer ${token}` } });
    expect(boardsRes.status).toBe(200);
    expect(boardsRes.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(boardsRes.headers.get('x-ratelimit-remaining')).toBe('999');
    const boards = (await boardsRes.json()) as { items: Array<{ id: string; name: string; privacy: string }>; bookmark: string | null };
    expect(boards.items.map((b) => b.name)).toEqual(['Inspiration', 'Products']);
    expect(boards.bookmark).toBeNull();
    const board = boards.items[0]!.id;

    // A pin from bytes (image_base64).
    const jpeg = fakeBytes('jpeg', 5_000).toString('base64');
    const fromBytes = await fetch(`${api}/v5/pins`, {
      method: 'POST',
      headers: json(token),
      body: JSON.stringify({ link: 'https://www.pinterest.com/', title: 'My Pin', description: 'Pin Description', alt_text: 'Pin alt text', board_id: board, media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data: jpeg } }),
    });
    expect(fromBytes.status).toBe(201);
    const pin1 = (await fromBytes.json()) as { id: string; board_id: string; title: string; media: { media_type: string } };
    expect(pin1).toMatchObject({ board_id: board, title: 'My Pin', media: { media_type: 'image' } });
    expect(pin1.id).toMatch(/^\d+$/);

    // A pin from a URL (image_url).
    const fromUrl = await fetch(`${api}/v5/pins`, {
      method: 'POST',
      headers: json(token),
      body: JSON.stringify({ title: 'From a URL', description: 'by URL', board_id: board, media_source: { source_type: 'image_url', url: 'https://i.pinimg.com/564x/28/75/e9/2875e94f8055227e72d514b837adb271.jpg' } }),
    });
    expect(fromUrl.status).toBe(201);

    // A carousel (multiple_image_urls, 2-5 items); one of 6 is refused.
    const item = (i: number) => ({ title: `Item ${i}`, description: `Item ${i}`, link: 'https://shop.example/', url: `https://i.pinimg.com/originals/${i}.jpg` });
    const carousel = await fetch(`${api}/v5/pins`, { method: 'POST', headers: json(token), body: JSON.stringify({ board_id: board, description: 'A carousel', media_source: { source_type: 'multiple_image_urls', items: [1, 2, 3].map(item), index: 0 } }) });
    expect(carousel.status).toBe(201);
    expect(((await carousel.json()) as { media: { media_type: string; items: unknown[] } }).media).toMatchObject({ media_type: 'multiple_images', items: [{}, {}, {}] });
    const six = await fetch(`${api}/v5/pins`, { method: 'POST', headers: json(token), body: JSON.stringify({ board_id: board, media_source: { source_type: 'multiple_image_urls', items: [1, 2, 3, 4, 5, 6].map(item) } }) });
    expect(six.status).toBe(400);
    expect(await six.json()).toEqual({ code: 1, message: 'media_source.items must hold 2 to 5 images' });

    // Read back: the pin, and the board's pins newest first.
    const read = await fetch(`${api}/v5/pins/${pin1.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await read.json()) as { description: string }).description).toBe('Pin Description');
    const list = (await (await fetch(`${api}/v5/boards/${board}/pins?page_size=2`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items: Array<{ title: string }>; bookmark: string };
    expect(list.items.map((p) => p.title)).toEqual([null, 'From a URL']);
    const rest = (await (await fetch(`${api}/v5/boards/${board}/pins?page_size=2&bookmark=${list.bookmark}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items: Array<{ title: string }>; bookmark: string | null };
    expect(rest).toEqual({ items: [expect.objectContaining({ title: 'My Pin' })], bookmark: null });

    // Delete: 204, then 404 in Pinterest's shape.
    expect((await fetch(`${api}/v5/pins/${pin1.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } })).status).toBe(204);
    const gone = await fetch(`${api}/v5/pins/${pin1.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ code: 3, message: 'Pin not found.' });
  });

  it('a video pin through media upload: register, the multipart POST to upload_url with upload_parameters, status until succeeded, the pin with a cover', async () => {
    const { access_token: token } = await signIn();
    const board = ((await (await fetch(`${api}/v5/boards`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items: Array<{ id: string }> }).items[1]!.id;

    const reg = await fetch(`${api}/v5/media`, { method: 'POST', headers: json(token), body: JSON.stringify({ media_type: 'video' }) });
    expect(reg.status).toBe(201);
    const { media_id, upload_url, upload_parameters } = (await reg.json()) as { media_id: string; upload_url: string; upload_parameters: Record<string, string> };
    expect(Object.keys(upload_parameters).sort()).toEqual(['Content-Type', 'key', 'policy', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-security-token', 'x-amz-signature']);
    // The upload URL is on the simulator's own loopback origin.
    expect(new URL(upload_url).origin).toBe(new URL(api).origin);

    // As Pinterest's example: curl --request POST upload_url --form 'x-amz-date=…' … --form 'file=@video.mp4' (the parameters first, the file last).
    const form = new FormData();
    for (const [k, v] of Object.entries(upload_parameters)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(fakeBytes('mp4', 30_000))], { type: 'video/mp4' }), 'video.mp4');
    expect((await fetch(upload_url, { method: 'POST', body: form })).status).toBe(204);

    const status = async () => ((await (await fetch(`${api}/v5/media/${media_id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { status: string }).status;
    expect(await status()).toBe('processing');
    // Pinning before it succeeded is refused.
    const early = await fetch(`${api}/v5/pins`, { method: 'POST', headers: json(token), body: JSON.stringify({ board_id: board, media_source: { source_type: 'video_id', media_id, cover_image_key_frame_time: 2 } }) });
    expect(early.status).toBe(400);
    await clock.advance(2_000);
    expect(await status()).toBe('succeeded');

    // Without a cover: refused.
    const noCover = await fetch(`${api}/v5/pins`, { method: 'POST', headers: json(token), body: JSON.stringify({ board_id: board, title: 'Video', media_source: { source_type: 'video_id', media_id } }) });
    expect(noCover.status).toBe(400);
    expect(((await noCover.json()) as { message: string }).message).toMatch(/cover image/);
    const made = await fetch(`${api}/v5/pins`, { method: 'POST', headers: json(token), body: JSON.stringify({ board_id: board, title: 'Video', description: 'A video pin', media_source: { source_type: 'video_id', media_id, cover_image_url: 'https://i.pinimg.com/cover.jpg' } }) });
    expect(made.status).toBe(201);
    expect(((await made.json()) as { media: { media_type: string; cover_image_url: string } }).media).toMatchObject({ media_type: 'video', cover_image_url: 'https://i.pinimg.com/cover.jpg' });
  });

  it("refuses, in Pinterest's shape: no token, a board of another account, a title over 100, an unknown field", async () => {
    const { access_token: token } = await signIn();
    const other = 'sandbox_at_someoneelse.secret';
    const theirBoard = ((await (await fetch(`${api}/v5/boards`, { headers: { Authorization: `Bearer ${other}` } })).json()) as { items: Array<{ id: string }> }).items[0]!.id;
    const media_source = { source_type: 'image_url', url: 'https://i.pinimg.com/a.jpg' };
    const post = (body: unknown, t: string | null = token) => fetch(`${api}/v5/pins`, { method: 'POST', headers: t ? json(t) : { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    const anon = await post({ board_id: theirBoard, media_source }, null);
    expect([anon.status, await anon.json()]).toEqual([401, { code: 2, message: 'Authentication failed.' }]);
    const notMine = await post({ board_id: theirBoard, media_source });
    expect([notMine.status, await notMine.json()]).toEqual([403, { code: 3, message: 'Not authorized to access board or Pin.' }]);
    const long = await post({ board_id: theirBoard.replace(/^9/, '8'), title: 'x'.repeat(101), media_source });
    expect([long.status, await long.json()]).toEqual([400, { code: 1, message: 'title is too long: at most 100 characters' }]);
    const unknown = await post({ board_id: theirBoard, media_source, color: '#fff' });
    expect([unknown.status, await unknown.json()]).toEqual([400, { code: 1, message: 'Unknown field(s): color' }]);
  });
});
