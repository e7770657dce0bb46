import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { google, type youtube_v3 } from 'googleapis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simState } from '../../src/platforms/shared/sim/sim-state';
import { createYoutubeSimulator, type YoutubeSimulator } from '../../src/platforms/youtube/sim/simulator';
import { openDatabase, type DB } from '../../src/store/database';
import { fakeBytes, RecordingClock } from '../platforms/shared/harness';
import { serveContractOrigins, type ContractOrigins } from './harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Issue 15, deliverable 6: Google's own Node client, `googleapis`, unmodified, against the
 * YouTube simulator's origin: `rootUrl` is the only change (docs/platforms/youtube.md).
 * videos.insert with media (googleapis sends uploadType=multipart with metadata, =media
 * without), videos.list, videos.update, videos.delete, channels.list; the resumable
 * protocol (which googleapis leaves to the caller) through the same client's
 * authenticated `request()`, step by step as Google's "Resumable uploads" guide shows it.
 */

let db: DB;
let sim: YoutubeSimulator;
let origins: ContractOrigins;

beforeEach(async () => {
  db = openDatabase(':memory:');
  sim = createYoutubeSimulator({ clock: new RecordingClock(), state: simState(sandboxStore(db), 'youtube') });
  const app = new Hono();
  for (const { host, app: hostApp } of sim.apps) app.route(`/${host}`, hostApp);
  origins = await serveContractOrigins([{ hosts: sim.apps.map((a) => a.host), app }]);
});
afterEach(async () => {
  await origins.close();
  db.close();
});

function client(token = 'sandbox_at_contract.secret') {
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: token });
  const rootUrl = `${origins.http['www.googleapis.com']}/`;
  return { auth, rootUrl, youtube: google.youtube({ version: 'v3', auth, rootUrl }) };
}

/** Resumable chunks but the last are multiples of 256 KiB (Google's rule), so two chunks need more than that. */
const CHUNK = 262_144;
const video = fakeBytes('mp4', CHUNK + 5000);

describe('googleapis against the YouTube simulator', () => {
  it('uploads with videos.insert (multipart and media), reads back with videos.list, updates, deletes, and lists its channel', async () => {
    const { youtube, rootUrl } = client();
    // googleapis builds an upload's media URL from the call's own rootUrl, not the client's: give it to the call too.
    const inserted = await youtube.videos.insert({
      part: ['snippet', 'status'],
      requestBody: { snippet: { title: 'Uploaded by googleapis', description: 'contract test', categoryId: '22' }, status: { privacyStatus: 'private' } },
      media: { mimeType: 'video/mp4', body: Readable.from(video) },
    }, { rootUrl });
    expect(inserted.status).toBe(200);
    expect(inserted.config.url?.toString()).toContain('uploadType=multipart');
    const id = inserted.data.id!;
    expect(inserted.data).toMatchObject({ kind: 'youtube#video', snippet: { title: 'Uploaded by googleapis' }, status: { privacyStatus: 'private', uploadStatus: 'uploaded' } });
    expect(sim.log.posts.at(-1)!.body).toMatchObject({ bytes: video.length });

    const mediaOnly = await youtube.videos.insert({ part: ['id'], media: { mimeType: 'video/mp4', body: Readable.from(video) } }, { rootUrl });
    expect(mediaOnly.config.url?.toString()).toContain('uploadType=media');
    expect(mediaOnly.data.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(mediaOnly.data.id).not.toBe(id);

    const listed = await youtube.videos.list({ part: ['snippet', 'status'], id: [id] });
    expect(listed.data).toMatchObject({ kind: 'youtube#videoListResponse', pageInfo: { totalResults: 1 }, items: [{ id, snippet: { title: 'Uploaded by googleapis' } }] });
    expect(listed.data.etag).toEqual(expect.any(String));

    const updated = await youtube.videos.update({ part: ['snippet', 'status'], requestBody: { id, snippet: { title: 'Renamed by googleapis', categoryId: '22' }, status: { privacyStatus: 'unlisted' } } });
    expect(updated.data).toMatchObject({ id, snippet: { title: 'Renamed by googleapis' }, status: { privacyStatus: 'unlisted' } });
    expect((await youtube.videos.list({ part: ['snippet'], id: [id] })).data.items?.[0]?.snippet?.title).toBe('Renamed by googleapis');

    // Another channel may not delete it; its owner may, once.
    await expect(client('sandbox_at_other.secret').youtube.videos.delete({ id })).rejects.toMatchObject({ status: 403 });
    expect((await youtube.videos.delete({ id })).status).toBe(204);
    expect((await youtube.videos.list({ part: ['id'], id: [id] })).data.items).toEqual([]);
    await expect(youtube.videos.delete({ id })).rejects.toMatchObject({ status: 404, response: { data: { error: { code: 404, errors: [expect.objectContaining({ reason: 'videoNotFound' })] } } } });

    const channels = await youtube.channels.list({ part: ['id', 'snippet'], mine: true });
    expect(channels.data).toMatchObject({ kind: 'youtube#channelListResponse', pageInfo: { totalResults: 1 }, items: [{ kind: 'youtube#channel', id: expect.stringMatching(/^UC/) }] });
    expect(Object.keys(channels.data.items![0]!).sort()).toEqual(['etag', 'id', 'kind', 'snippet']);
    expect(channels.data.etag).toEqual(expect.any(String));
  });

  it('uploads with the resumable protocol: a session, the bytes in two chunks, a status query between them', async () => {
    const { auth, youtube } = client();
    const base = origins.http['www.googleapis.com']!;
    const session = await auth.request({
      url: `${base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(video.length), 'x-upload-content-type': 'video/mp4' },
      data: { snippet: { title: 'Resumable by googleapis' }, status: { privacyStatus: 'private' } },
    });
    const location = session.headers.get('location')!;
    expect(location.startsWith(base)).toBe(true);
    expect(new URL(location).searchParams.get('upload_id')).toMatch(/.+/);

    const half = CHUNK;
    const first = await auth.request({ url: location, method: 'PUT', headers: { 'content-range': `bytes 0-${half - 1}/${video.length}` }, data: video.subarray(0, half), validateStatus: (s) => s === 308 });
    expect(first.headers.get('range')).toBe(`bytes=0-${half - 1}`);
    const status = await auth.request({ url: location, method: 'PUT', headers: { 'content-range': `bytes */${video.length}` }, validateStatus: (s) => s === 308 });
    expect(status.headers.get('range')).toBe(`bytes=0-${half - 1}`);
    const done = await auth.request<youtube_v3.Schema$Video>({ url: location, method: 'PUT', headers: { 'content-range': `bytes ${half}-${video.length - 1}/${video.length}` }, data: video.subarray(half) });
    expect(done.status).toBe(201);
    expect(done.data.snippet?.title).toBe('Resumable by googleapis');
    expect((await youtube.videos.list({ part: ['status'], id: [done.data.id!] })).data.items?.[0]?.status?.uploadStatus).toBe('uploaded');
  });

  it("reports an unknown path in Google's error shape through the client", async () => {
    const { auth } = client();
    const err = await auth.request({ url: `${origins.http['www.googleapis.com']}/youtube/v3/nonsense` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, response: { data: { error: { code: 404, errors: [expect.objectContaining({ domain: 'global', reason: 'notFound' })] } } } });
  });
});
