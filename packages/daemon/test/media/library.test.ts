import { MediaLibrarySchema } from '@socialpub/core';
import { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { ManualClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { SAMPLES, tempDir } from './helpers';

/**
 * GET /media/library (issue 38, item 7: the media library Compose reuses files from): the
 * caller's prepared files still on hand, newest first, with their names; another user's are
 * not there, and an expired one leaves the list.
 */
describe('GET /media/library', () => {
  const tmp = tempDir();
  const clock = new ManualClock(Date.UTC(2026, 5, 10, 8));
  let daemon: DaemonHandle;
  let mine: string;
  let theirs: string;

  beforeAll(async () => {
    const config = resolveConfig({ dataDir: tmp.dir, port: 0 }, { SOCIALPUB_RATE_LIMITS: 'off' });
    daemon = await startDaemon(config, { logger: createLogger({ level: 'silent' }), clock });
    mine = daemon.store.apiKeys.create(daemon.store.users.ensure('me@example.com', clock.now()).user.id, 'test', clock.now()).apiKey;
    theirs = daemon.store.apiKeys.create(daemon.store.users.ensure('them@example.com', clock.now()).user.id, 'test', clock.now()).apiKey;
  });
  afterAll(async () => {
    await daemon.close();
    tmp.cleanup();
  });

  const upload = async (key: string, name: string, bytes: Buffer, type: string) => {
    const res = await fetch(`${daemon.url}/api/agents/v1/media/upload?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': type }, body: new Uint8Array(bytes) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { files: { prepared_url: string }[] }).files[0]!.prepared_url;
  };
  const library = async (key: string) => {
    const res = await fetch(`${daemon.url}/api/agents/v1/media/library`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    return MediaLibrarySchema.parse(await res.json()).files;
  };

  it("lists the caller's files newest first with their names and kinds, not another user's, until they expire", async () => {
    expect(await library(mine)).toEqual([]);
    const photo = await upload(mine, 'Team photo.png', SAMPLES.png, 'image/png');
    await clock.advance(60_000);
    const clip = await upload(mine, 'teaser.mp4', SAMPLES.mp4, 'video/mp4');
    await upload(theirs, 'private.png', SAMPLES.png, 'image/png');

    const files = await library(mine);
    expect(files.map((f) => [f.name, f.type, f.prepared_url])).toEqual([
      ['teaser.mp4', 'video', clip],
      ['Team-photo.png', 'image', photo],
    ]);
    expect(files[0]).toMatchObject({ mime_type: 'video/mp4', size: SAMPLES.mp4.length, prepared_at: '2026-06-10T08:01:00.000Z', expires_at: '2026-06-11T08:01:00.000Z' });
    expect((await library(theirs)).map((f) => f.name)).toEqual(['private.png']);
    // The SDK's call is the same route.
    expect((await new SocialPub({ baseUrl: daemon.url, apiKey: mine, maxRetries: 0 }).media.library()).files).toEqual(files);

    // 24 hours after the first upload, it has expired; the second has a minute left (the time set, no sweeper woken).
    clock.set(Date.UTC(2026, 5, 11, 8));
    expect((await library(mine)).map((f) => f.name)).toEqual(['teaser.mp4']);
  });

  it('answers 401 without a key', async () => {
    expect((await fetch(`${daemon.url}/api/agents/v1/media/library`)).status).toBe(401);
  });
});
