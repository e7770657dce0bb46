import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../../src/store/database';
import { simState } from '../../../src/platforms/shared/sim/sim-state';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import { fakeBytes, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';
import { sandboxStore } from '../../support/sandbox-records';

/** Issue 15: the request forms X documents, reads and deletes, X's error shapes, one account per sandbox connection, state across restarts. */

let clock: RecordingClock;
let db: DB;
let sim: TwitterSimulator;
let server: SimServer;

async function start(): Promise<void> {
  sim = createTwitterSimulator({ clock, state: simState(sandboxStore(db), 'x') });
  server = await serveSimulators([{ host: X_HOST, app: sim.app }]);
}

beforeEach(async () => {
  clock = new RecordingClock();
  db = openDatabase(':memory:');
  await start();
});
afterEach(async () => {
  // Every exchange agrees with X's description (the unknown-path test's requests are deliberately none of its operations).
  expect(checkTraffic(sim.log.requests).filter((p) => !p.endsWith('not an operation of the X API v2 description'))).toEqual([]);
  await server.close();
  db.close();
});

const A = 'sandbox_at_aaaa.secret1';
const B = 'sandbox_at_bbbb.secret2';
const x = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.baseUrl(X_HOST)}${path}`, { ...init, headers: { authorization: `Bearer ${init.token ?? A}`, ...(init.headers as Record<string, string>) } });
const post = (body: unknown, token = A) => x('/2/tweets', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, token });
const body = async <T = Record<string, unknown>>(r: Response) => (await r.json()) as T;

/** Bytes that are not valid UTF-8, so any text decoding would change their length. */
const binary = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 0x80) % 256));

/** A multipart body whose `media` part has no filename (as twitter-api-v2 sends it). */
function multipart(fields: Record<string, string>, media: Buffer): { body: Buffer; type: string } {
  const boundary = 'socialpub-test-boundary';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"\r\nContent-Type: application/octet-stream\r\n\r\n`), media, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe('X simulator: documented request forms', () => {
  it('takes an append whose multipart media part has no filename as raw bytes', async () => {
    const total = 2687;
    const init = await body<{ data: { id: string; media_key: string } }>(await x('/2/media/upload/initialize', { method: 'POST', body: JSON.stringify({ media_type: 'video/mp4', total_bytes: total, media_category: 'tweet_video' }), headers: { 'content-type': 'application/json' } }));
    const bytes = binary(total);
    const form = multipart({ segment_index: '0' }, bytes);
    const append = await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: form.body, headers: { 'content-type': form.type } });
    expect(append.status).toBe(200);
    const fin = await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' });
    expect(fin.status).toBe(200);
    expect((await body<{ data: { size: number; media_key: string } }>(fin)).data).toMatchObject({ size: total, media_key: init.data.media_key });
  });

  it('takes the JSON append with base64 media and an integer segment_index', async () => {
    const bytes = binary(3000);
    const init = await body<{ data: { id: string } }>(await x('/2/media/upload/initialize', { method: 'POST', body: JSON.stringify({ media_type: 'video/mp4', total_bytes: 3000 }), headers: { 'content-type': 'application/json' } }));
    for (const [i, chunk] of [bytes.subarray(0, 2000), bytes.subarray(2000)].entries()) {
      const r = await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: JSON.stringify({ segment_index: i, media: chunk.toString('base64') }), headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(200);
    }
    const fin = await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' });
    expect((await body<{ data: { size: number } }>(fin)).data.size).toBe(3000);
  });

  it('takes the one-shot upload with a filename-less multipart media part, and with JSON base64 media', async () => {
    const png = fakeBytes('png', 500);
    const form = multipart({ media_category: 'tweet_image' }, png);
    const one = await x('/2/media/upload', { method: 'POST', body: form.body, headers: { 'content-type': form.type } });
    expect(one.status).toBe(200);
    const a = (await body<{ data: { id: string; media_key: string; size: number } }>(one)).data;
    expect(a).toMatchObject({ media_key: `3_${a.id}`, size: 500 });
    const two = await x('/2/media/upload', { method: 'POST', body: JSON.stringify({ media_category: 'tweet_image', media: png.toString('base64') }), headers: { 'content-type': 'application/json' } });
    expect((await body<{ data: { size: number } }>(two)).data.size).toBe(500);
  });

  it('answers the same media_key prefix from initialize and finalize (3_ images, 16_ GIFs, 7_ videos)', async () => {
    const keys: string[][] = [];
    for (const [type, total] of [['image/png', 500], ['image/gif', 300], ['video/mp4', 400]] as const) {
      const init = await body<{ data: { id: string; media_key: string } }>(await x('/2/media/upload/initialize', { method: 'POST', body: JSON.stringify({ media_type: type, total_bytes: total }), headers: { 'content-type': 'application/json' } }));
      const media = type === 'image/png' ? fakeBytes('png', total) : binary(total);
      await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: JSON.stringify({ segment_index: 0, media: media.toString('base64') }), headers: { 'content-type': 'application/json' } });
      const fin = await body<{ data: { media_key: string } }>(await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' }));
      keys.push([init.data.media_key.split('_')[0]!, fin.data.media_key.split('_')[0]!]);
    }
    expect(keys).toEqual([['3', '3'], ['16', '16'], ['7', '7']]);
  });
});

describe('X simulator: reading back and deleting', () => {
  it('GET /2/tweets/{id} reads a post back; DELETE removes it (only its author may), and a missing post is a 200 with errors', async () => {
    const made = (await body<{ data: { id: string } }>(await post({ text: 'read me back' }))).data.id;
    const read = await body<{ data: Record<string, unknown> }>(await x(`/2/tweets/${made}?post.fields=created_at`));
    expect(read.data).toMatchObject({ id: made, text: 'read me back', edit_history_post_ids: [made], created_at: new Date(clock.now()).toISOString() });

    const notYours = await x(`/2/tweets/${made}`, { method: 'DELETE', token: B });
    expect(notYours.status).toBe(403);
    const del = await x(`/2/tweets/${made}`, { method: 'DELETE' });
    expect(await body(del)).toEqual({ data: { deleted: true } });
    const gone = await x(`/2/tweets/${made}`);
    expect(gone.status).toBe(200);
    expect(await body(gone)).toMatchObject({ errors: [{ title: 'Not Found Error', resource_type: 'post', resource_id: made }] });
    expect((await x(`/2/tweets/${made}`, { method: 'DELETE' })).status).toBe(404);
    // Deleted text is no longer a duplicate.
    expect((await post({ text: 'read me back' })).status).toBe(201);
  });

  it("answers unknown paths and methods with X's problem shape, not the daemon's error body", async () => {
    const unknown = await x('/2/nonsense/path');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(await body(unknown)).toMatchObject({ type: 'https://api.x.com/2/problems/resource-not-found', title: 'Not Found Error', status: 404 });
    const method = await x('/2/tweets', { method: 'PUT' });
    expect(method.status).toBe(405);
    expect(await body(method)).toMatchObject({ type: 'https://api.x.com/2/problems/invalid-request', status: 405 });
  });
});

describe('X simulator: one simulated account per sandbox connection', () => {
  it('gives each connection its own user, so the same caption twice within a minute is no duplicate across connections', async () => {
    const meA = await body<{ data: { id: string; username: string } }>(await x('/2/users/me'));
    const meB = await body<{ data: { id: string; username: string } }>(await x('/2/users/me', { token: B }));
    expect(meA.data.id).not.toBe(meB.data.id);
    expect(meA.data.username).not.toBe(meB.data.username);
    // The refresh token of the same connection is the same account.
    expect((await body<{ data: { id: string } }>(await x('/2/users/me', { token: 'sandbox_at_aaaa.other' }))).data.id).toBe(meA.data.id);

    expect((await post({ text: 'same caption' })).status).toBe(201);
    clock.advance(30_000);
    expect((await post({ text: 'same caption' }, B)).status).toBe(201);
    expect((await post({ text: 'same caption' })).status).toBe(403);
  });

  it("does not let one connection's 100 posts limit another", async () => {
    for (let i = 0; i < 100; i++) expect((await post({ text: `post ${i}` })).status).toBe(201);
    const limited = await post({ text: 'one more' });
    expect(limited.status).toBe(429);
    const other = await post({ text: 'one more' }, B);
    expect(other.status).toBe(201);
    expect(other.headers.get('x-rate-limit-remaining')).toBe('99');
  }, 60_000);
});

describe('X simulator: state kept in SQLite across a restart', () => {
  it('continues ids, keeps posts, accounts, rate windows, uploads in progress and duplicate memory', async () => {
    const first = (await body<{ data: { id: string } }>(await post({ text: 'before the restart' }))).data.id;
    const me = (await body<{ data: { id: string } }>(await x('/2/users/me'))).data.id;
    const init = await body<{ data: { id: string } }>(await x('/2/media/upload/initialize', { method: 'POST', body: JSON.stringify({ media_type: 'video/mp4', total_bytes: 200 }), headers: { 'content-type': 'application/json' } }));
    await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: JSON.stringify({ segment_index: 0, media: binary(100).toString('base64') }), headers: { 'content-type': 'application/json' } });
    expect(checkTraffic(sim.log.requests)).toEqual([]);
    await server.close();

    await start();
    expect((await post({ text: 'before the restart' })).status).toBe(403);
    const second = await post({ text: 'after the restart' });
    expect(second.headers.get('x-rate-limit-remaining')).toBe('97');
    const id = (await body<{ data: { id: string } }>(second)).data.id;
    expect(BigInt(id)).toBeGreaterThan(BigInt(first));
    expect((await body<{ data: { text: string } }>(await x(`/2/tweets/${first}`))).data.text).toBe('before the restart');
    expect((await body<{ data: { id: string } }>(await x('/2/users/me'))).data.id).toBe(me);
    await x(`/2/media/upload/${init.data.id}/append`, { method: 'POST', body: JSON.stringify({ segment_index: 1, media: binary(100).toString('base64') }), headers: { 'content-type': 'application/json' } });
    expect((await x(`/2/media/upload/${init.data.id}/finalize`, { method: 'POST' })).status).toBe(200);
  });
});
