import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { createLogger } from '../../src/util/logger';
import { SAMPLES, send, startServer, tempDir, type TestServer } from './helpers';

/** The real daemon over a socket: routes mounted by app.ts behind auth, files served unauthenticated. */
describe('media preparation in the running daemon', () => {
  const tmp = tempDir();
  let daemon: DaemonHandle;
  let source: TestServer;
  let key: string;
  const video = Buffer.concat([SAMPLES.mp4, Buffer.alloc(5000, 9)]);

  beforeAll(async () => {
    source = await startServer({ '/talk.mp4': send(video, 'video/mp4') });
    // The source server is on loopback: allowed as on a trusted LAN.
    const env = { SOCIALPUB_RATE_LIMITS: 'off', SOCIALPUB_MEDIA_ALLOW_PRIVATE: '1' };
    daemon = await startDaemon(resolveConfig({ dataDir: tmp.dir, port: 0 }, env), { logger: createLogger({ level: 'silent' }) });
    const { user } = daemon.store.users.ensure('media@example.com', Date.now());
    key = daemon.store.apiKeys.create(user.id, 'test', Date.now()).apiKey;
  });
  afterAll(async () => {
    await daemon.close();
    await source.close();
    tmp.cleanup();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${daemon.url}/api/agents/v1${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...(init.headers ?? {}) } });

  it('prepares, reports and serves a file, replaying an Idempotency-Key', async () => {
    const body = JSON.stringify({ urls: [`${source.origin}/talk.mp4`] });
    const first = await api('/media/prepare', { method: 'POST', body, headers: { 'idempotency-key': 'prep-1' } });
    expect(first.status).toBe(200);
    const { task_id } = (await first.json()) as { task_id: string };
    const replay = await api('/media/prepare', { method: 'POST', body, headers: { 'idempotency-key': 'prep-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { task_id: string }).task_id).toBe(task_id);

    // Poll as a client would, one request after another (bounded, no timers).
    let status: { status: string; files?: { prepared_url: string; size: number }[] } = { status: 'processing' };
    for (let i = 0; i < 500 && status.status === 'processing'; i++) status = (await (await api(`/media/status/${task_id}`)).json()) as typeof status;
    expect(status.status).toBe('completed');
    const prepared = status.files?.[0]?.prepared_url ?? '';
    expect(prepared.startsWith(`${daemon.url}/files/`)).toBe(true);

    const whole = await fetch(prepared);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const part = await fetch(prepared, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('ftypisom');
  });

  it('needs a key for the media routes but not for prepared files', async () => {
    const res = await fetch(`${daemon.url}/api/agents/v1/media/status/task_x`);
    expect(res.status).toBe(401);
    const file = await fetch(`${daemon.url}/files/0123456789abcdefghijklmnopqrstuv/a.jpg`);
    expect(file.status).toBe(404);
  });
});
