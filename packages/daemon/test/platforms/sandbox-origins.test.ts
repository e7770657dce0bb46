import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { readSandboxEndpoints, readSandboxHttpsEndpoints } from '../../src/platforms/sandbox';
import { sandboxCertFile } from '../../src/platforms/sandbox-tls';
import { createLogger } from '../../src/util/logger';
import { useTempDirs } from '../support/temp-dirs';

/** Issue 15: each simulated host at an origin of its own, so a client needs only its base URL changed. */

const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const quiet = { logger: createLogger({ write: () => undefined }) };
const auth = { authorization: 'Bearer sandbox_at_origin1.secret' };

describe('simulators at origins of their own', () => {
  it('serves X, YouTube and Meta hosts at loopback origins without a path prefix, the same ports after a restart', async () => {
    const dir = tempDir('sp-origins-');
    const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    closers.push(() => daemon.close());
    const endpoints = readSandboxEndpoints(daemon.store.settings);
    expect(Object.keys(endpoints)).toEqual(expect.arrayContaining(['api.x.com', 'www.googleapis.com', 'oauth2.googleapis.com', 'graph.facebook.com', 'graph.threads.net', 'open.tiktokapis.com']));
    for (const origin of Object.values(endpoints)) expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const me = await fetch(`${endpoints['api.x.com']}/2/users/me`, { headers: auth });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { username: string } }).data.username).toMatch(/^sandbox_x_\d+$/);
    const unknown = await fetch(`${endpoints['api.x.com']}/2/nope`, { headers: auth });
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');

    // A resumable session's Location points back at the same origin and works there.
    const video = Buffer.alloc(1000, 7);
    const open = await fetch(`${endpoints['www.googleapis.com']}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-upload-content-length': String(video.length), 'x-upload-content-type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'own origin' }, status: { privacyStatus: 'private' } }),
    });
    const location = open.headers.get('location')!;
    expect(location.startsWith(endpoints['www.googleapis.com']!)).toBe(true);
    const put = await fetch(location, { method: 'PUT', headers: { 'content-range': `bytes 0-999/1000` }, body: video });
    expect(put.status).toBe(201);

    const threads = await fetch(`${endpoints['graph.threads.net']}/v1.0/me?fields=id`, { headers: auth });
    expect(((await threads.json()) as { id: string }).id).toMatch(/^[0-9]{16}$/);

    // The same hosts over https, presenting the data dir's self-signed certificate; trusting that file is enough.
    const https = readSandboxHttpsEndpoints(daemon.store.settings);
    expect(Object.keys(https).sort()).toEqual(Object.keys(endpoints).sort());
    for (const origin of Object.values(https)) expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = readFileSync(sandboxCertFile(dir), 'utf8');
    expect(await httpsStatus(`${https['api.x.com']}/2/users/me`, cert)).toBe(200);
    await expect(httpsStatus(`${https['api.x.com']}/2/users/me`, undefined)).rejects.toThrow(/self-signed|certificate/);

    await daemon.close();
    closers.length = 0;
    const again = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    closers.push(() => again.close());
    expect(readSandboxEndpoints(again.store.settings)).toEqual(endpoints);
    expect(readSandboxHttpsEndpoints(again.store.settings)).toEqual(https);
    expect(readFileSync(sandboxCertFile(dir), 'utf8')).toBe(cert); // generated once, trusted once
    expect((await fetch(`${endpoints['api.x.com']}/2/users/me`, { headers: auth })).status).toBe(200);
  });
});

/** An https GET trusting only `ca` (or the system's roots when undefined): the status, or the TLS error. */
function httpsStatus(url: string, ca: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { ca, headers: auth }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}
