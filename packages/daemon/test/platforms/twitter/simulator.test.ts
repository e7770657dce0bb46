import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import { driveClock, fakeBytes, makeContext, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

let clock: RecordingClock;
let sim: TwitterSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new RecordingClock();
  sim = createTwitterSimulator({ clock });
  server = await serveSimulators([{ host: X_HOST, app: sim.app }]);
});
afterEach(async () => {
  // Every answer conforms to X's description (the requests some tests send are deliberately bad).
  expect(checkTraffic(sim.log.requests).filter((p) => !p.includes(': request body '))).toEqual([]);
  await server.close();
});

const x = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.baseUrl(X_HOST)}${path}`, { ...init, headers: { authorization: `Bearer ${init.token ?? 'sandbox-a'}`, ...(init.headers as Record<string, string>) } });
const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('the X simulator', () => {
  it('refuses media owned by another user, more than four media ids, and media still processing', async () => {
    const other = sim.issueTokens('c', 'tweet.read tweet.write users.read media.write', '1000000000000000002');
    const form = new FormData();
    form.set('media', new Blob([new Uint8Array(fakeBytes('png', 100))]), 'a.png');
    form.set('media_category', 'tweet_image');
    const up = (await (await x('/2/media/upload', { method: 'POST', body: form, token: other.access_token })).json()) as { data: { id: string } };
    const stolen = await x('/2/tweets', json({ text: 'not mine', media: { media_ids: [up.data.id] } }));
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as { detail: string }).detail).toBe('Your media IDs are invalid.');

    const five = await x('/2/tweets', json({ text: 'five', media: { media_ids: ['1', '2', '3', '4', '5'] } }));
    expect(five.status).toBe(400);
    expect(checkTraffic(sim.log.requests)).toEqual([expect.stringMatching(/must NOT have more than 4 items/)]);

    const init = (await (await x('/2/media/upload/initialize', json({ media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' }))).json()) as { data: { id: string } };
    const seg = new FormData();
    seg.set('media', new Blob([new Uint8Array(10)]), 's');
    seg.set('segment_index', '0');
    await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: seg });
    await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' });
    expect((await x('/2/tweets', json({ text: 'too soon', media: { media_ids: [init.data.id] } }))).status).toBe(400);
  });

  it('refuses fields CreatePostsRequest does not have, text over 280 weighted characters, and finalize before all bytes', async () => {
    expect((await x('/2/tweets', json({ text: 'hi', status: 'hi' }))).status).toBe(400);
    expect(checkTraffic(sim.log.requests)).toEqual([expect.stringMatching(/must NOT have additional properties/)]);
    expect((await x('/2/tweets', json({ text: '日'.repeat(141) }))).status).toBe(400);
    expect((await x('/2/tweets', json({ text: '日'.repeat(140) }))).status).toBe(201);
    const init = (await (await x('/2/media/upload/initialize', json({ media_type: 'video/mp4', total_bytes: 100, media_category: 'tweet_video' }))).json()) as { data: { id: string } };
    const fin = await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' });
    expect(fin.status).toBe(400);
    expect(((await fin.json()) as { detail: string }).detail).toMatch(/Segments do not add up/);
  });

  it('refuses requests without valid credentials with 401', async () => {
    expect((await x('/2/tweets', { ...json({ text: 'hi' }), token: 'xat-forged' })).status).toBe(401);
  });

  it('delays an answer by the injected latency on its clock', async () => {
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'latency', delayMs: 20_000 });
    const adapter = createTwitterAdapter();
    const ctx = makeContext({ platform: 'twitter', type: 'tweet', caption: 'slow', secrets: { access_token: 'sandbox-a' }, meta: { username: 'sandbox_x' }, clock, server });
    const before = clock.now();
    await driveClock(clock, adapter.publish(ctx), 5_000);
    expect(sim.log.posts[0]!.createdAt - before).toBe(20_000);
  });
});
