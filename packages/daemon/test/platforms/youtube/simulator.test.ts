import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createYoutubeSimulator, YOUTUBE_HOST, type YoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: YoutubeSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new ManualClock();
  sim = createYoutubeSimulator({ clock });
  server = await serveSimulators(sim.apps);
});
afterEach(() => server.close());

async function session(size: number, resource: unknown = { snippet: { title: 'ok' }, status: { privacyStatus: 'private' } }) {
  return fetch(`${server.baseUrl(YOUTUBE_HOST)}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-y', 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4' },
    body: JSON.stringify(resource),
  });
}

describe('the YouTube simulator', () => {
  it('refuses non-final chunks that are not 256 KiB multiples and answers probes with what it holds', async () => {
    const uri = (await session(600_000)).headers.get('location')!;
    const put = (range: string, n: number) => fetch(uri, { method: 'PUT', headers: { 'content-range': range, 'content-type': 'video/mp4' }, body: new Uint8Array(n) });
    const odd = await put('bytes 0-99999/600000', 100_000);
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({ error: { code: 400, errors: [{ reason: 'badRequest' }] } });
    const probe0 = await put('bytes */600000', 0);
    expect([probe0.status, probe0.headers.get('range')]).toEqual([308, null]);
    expect((await put('bytes 0-262143/600000', 262_144)).status).toBe(308);
    const probe = await put('bytes */600000', 0);
    expect([probe.status, probe.headers.get('range')]).toEqual([308, 'bytes=0-262143']);
    const last = await put('bytes 262144-599999/600000', 337_856);
    expect(last.status).toBe(201);
    expect(await last.json()).toMatchObject({ kind: 'youtube#video', status: { uploadStatus: 'uploaded', privacyStatus: 'private' } });
    expect((await put('bytes */600000', 0)).status).toBe(200);
  });

  it('refuses bad metadata with the reasons YouTube documents', async () => {
    const reason = async (resource: unknown) => ((await (await session(10, resource)).json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]!.reason;
    expect(await reason({ snippet: { title: '' } })).toBe('invalidTitle');
    expect(await reason({ snippet: { title: 'a<b' } })).toBe('invalidTitle');
    expect(await reason({ snippet: { title: 'x'.repeat(101) } })).toBe('invalidTitle');
    expect(await reason({ snippet: { title: 't', description: '€'.repeat(1667) } })).toBe('invalidDescription');
    expect(await reason({ snippet: { title: 't' }, status: { privacyStatus: 'public', publishAt: '2027-01-01T00:00:00Z' } })).toBe('invalidPublishAt');
  });

  it('counts inserts in their own daily bucket and resets it at midnight Pacific', async () => {
    sim.settings.insertsPerDay = 2;
    expect((await session(10)).status).toBe(200);
    expect((await session(10)).status).toBe(200);
    const over = await session(10);
    expect(over.status).toBe(403);
    expect(await over.json()).toMatchObject({ error: { errors: [{ reason: 'quotaExceeded', domain: 'youtube.quota' }] } });
    // 2026-12-25 09:00 UTC is 01:00 PST: the bucket refills at 08:00 UTC the next day.
    await clock.advance(Date.UTC(2026, 11, 26, 8) - clock.now() - 1);
    expect((await session(10)).status).toBe(403);
    await clock.advance(1);
    expect((await session(10)).status).toBe(200);
  });

  it('answers 404 once a session has expired', async () => {
    const uri = (await session(10)).headers.get('location')!;
    await clock.advance(7 * 24 * 3600_000);
    expect((await fetch(uri, { method: 'PUT', headers: { 'content-range': 'bytes */10' } })).status).toBe(404);
  });
});
