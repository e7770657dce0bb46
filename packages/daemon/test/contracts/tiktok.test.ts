import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simState } from '../../src/platforms/shared/sim/sim-state';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../src/platforms/tiktok/sim/simulator';
import { openDatabase, type DB } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';
import { fakeBytes } from '../platforms/shared/harness';
import { serveContractOrigins, type ContractOrigins } from './harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Issue 15 for TikTok: no official Node client exists, so the Content Posting API's calls are
 * made with plain fetch exactly as TikTok's docs show them (docs/reference/platforms.md §5,
 * §12.5): creator_info, video/init with FILE_UPLOAD, the chunk PUTs to upload_url with
 * Content-Range, status/fetch; user/info. TikTok documents no delete. Then the simulator's
 * state across a restart: ids continue, the upload in progress completes, the creator and
 * rate windows carry on.
 */

/** 64 KiB minimum chunks so a two-chunk upload stays small (the adapter tests scale the same way). */
const RULES = { min: 64 * 1024, max: 256 * 1024, finalMax: 512 * 1024, maxChunks: 1000 };

let db: DB;
let clock: ManualClock;
let sim: TiktokSimulator;
let origins: ContractOrigins;

async function start(previous?: ContractOrigins): Promise<void> {
  sim = createTiktokSimulator({ clock, chunkRules: RULES, processingMs: 3_000, state: simState(sandboxStore(db), 'tiktok') });
  origins = await serveContractOrigins([{ hosts: [TIKTOK_HOST], app: new Hono().route(`/${TIKTOK_HOST}`, sim.app) }], previous);
}
beforeEach(async () => {
  db = openDatabase(':memory:');
  clock = new ManualClock();
  await start();
});
afterEach(async () => {
  await origins.close();
  db.close();
});

const ANN = 'sandbox_at_tiktokann.secret';
const BOB = 'sandbox_at_tiktokbob.secret';

interface TikTokAnswer<T> {
  data: T;
  error: { code: string; message: string; log_id: string };
}

/** `curl -X POST 'https://open.tiktokapis.com/v2/...' -H 'Authorization: Bearer …' -H 'Content-Type: application/json; charset=UTF-8' -d '…'` */
async function tiktok<T = Record<string, unknown>>(path: string, body: unknown, token = ANN): Promise<{ status: number; body: TikTokAnswer<T> }> {
  const res = await fetch(`${origins.http[TIKTOK_HOST]}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as TikTokAnswer<T> };
}

const put = (url: string, bytes: Buffer, first: number, total: number) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}` }, body: bytes });

async function init(video: Buffer, chunkSize: number, title: string, token = ANN) {
  return tiktok<{ publish_id: string; upload_url: string }>(
    '/v2/post/publish/video/init/',
    { post_info: { title, privacy_level: 'SELF_ONLY', disable_comment: false }, source_info: { source: 'FILE_UPLOAD', video_size: video.length, chunk_size: chunkSize, total_chunk_count: Math.floor(video.length / chunkSize) } },
    token,
  );
}

describe('TikTok Content Posting API as documented, against the simulator', () => {
  it('creator_info, init, chunked PUTs, status until PUBLISH_COMPLETE; each sandbox connection is its own creator', async () => {
    const info = await tiktok<{ creator_username: string; privacy_level_options: string[] }>('/v2/post/publish/creator_info/query/', undefined);
    expect(info.body.error.code).toBe('ok');
    expect(info.body.data.privacy_level_options).toContain('SELF_ONLY');
    const bobInfo = await tiktok<{ creator_username: string }>('/v2/post/publish/creator_info/query/', undefined, BOB);
    expect(bobInfo.body.data.creator_username).not.toBe(info.body.data.creator_username);

    const video = fakeBytes('mp4', 200 * 1024);
    const chunk = 64 * 1024;
    const started = await init(video, chunk, 'From the contract test');
    expect(started.body.error.code).toBe('ok');
    const { publish_id: publishId, upload_url: uploadUrl } = started.body.data;
    expect(uploadUrl.startsWith(origins.http[TIKTOK_HOST]!)).toBe(true);
    expect((await put(uploadUrl, video.subarray(0, chunk), 0, video.length)).status).toBe(206);
    expect((await put(uploadUrl, video.subarray(chunk, 2 * chunk), chunk, video.length)).status).toBe(206);
    expect((await put(uploadUrl, video.subarray(2 * chunk), 2 * chunk, video.length)).status).toBe(201);

    const processing = await tiktok<{ status: string }>('/v2/post/publish/status/fetch/', { publish_id: publishId });
    expect(processing.body.data.status).toBe('PROCESSING_UPLOAD');
    await clock.advance(3_000);
    const done = await tiktok<{ status: string; uploaded_bytes: number }>('/v2/post/publish/status/fetch/', { publish_id: publishId });
    expect(done.body.data).toMatchObject({ status: 'PUBLISH_COMPLETE', uploaded_bytes: video.length });
    // Another connection's token may not read it.
    expect((await tiktok('/v2/post/publish/status/fetch/', { publish_id: publishId }, BOB)).body.error.code).toBe('token_not_authorized_for_specified_publish_id');

    // user/info is a GET; a POST, and an unknown path, answer in TikTok's envelope.
    const wrongMethod = await tiktok('/v2/user/info/?fields=open_id,username', undefined);
    expect(wrongMethod).toMatchObject({ status: 405, body: { data: {}, error: { code: 'method_not_allowed', log_id: expect.any(String) } } });
    expect(await tiktok('/v2/post/publish/nonsense/', {})).toMatchObject({ status: 404, body: { data: {}, error: { code: 'not_found' } } });
    const me = (await (await fetch(`${origins.http[TIKTOK_HOST]}/v2/user/info/?fields=open_id,username`, { headers: { authorization: `Bearer ${ANN}` } })).json()) as TikTokAnswer<{ user: { open_id: string; username: string } }>;
    expect(me.data.user.username).toBe(info.body.data.creator_username);
    expect(sim.log.posts.map((p) => [p.accountId, p.body.publish_id])).toEqual([[me.data.user.open_id, publishId]]);
  });

  it('continues after a restart: the upload in progress completes, ids do not repeat, the creator and the rate window carry on', async () => {
    const video = fakeBytes('mp4', 128 * 1024);
    const chunk = 64 * 1024;
    const before = (await init(video, chunk, 'Started before the restart')).body.data;
    expect((await put(before.upload_url, video.subarray(0, chunk), 0, video.length)).status).toBe(206);
    const creatorBefore = (await tiktok<{ creator_username: string }>('/v2/post/publish/creator_info/query/', undefined)).body.data.creator_username;
    for (let i = 0; i < 4; i++) expect((await init(video, chunk, `filler ${i}`)).body.error.code).toBe('ok');

    await origins.close();
    await start(origins); // the same database and ports: a daemon restart

    expect((await tiktok<{ creator_username: string }>('/v2/post/publish/creator_info/query/', undefined)).body.data.creator_username).toBe(creatorBefore);
    expect((await put(before.upload_url, video.subarray(chunk), chunk, video.length)).status).toBe(201);
    await clock.advance(3_000);
    const status = await tiktok<{ status: string; uploaded_bytes: number }>('/v2/post/publish/status/fetch/', { publish_id: before.publish_id });
    expect(status.body.data).toMatchObject({ status: 'PUBLISH_COMPLETE', uploaded_bytes: video.length });

    // Six inits a minute per user: five were made before the restart, the sixth is the last allowed.
    const sixth = await init(video, chunk, 'after the restart');
    expect(sixth.body.error.code).toBe('ok');
    expect(sixth.body.data.publish_id).not.toBe(before.publish_id);
    expect((await init(video, chunk, 'one too many')).body.error.code).toBe('rate_limit_exceeded');
    expect((await init(video, chunk, 'another user', BOB)).body.error.code).toBe('ok');
  });
});
