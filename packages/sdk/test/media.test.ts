import { NotFoundError, type MediaStatus, type SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonWithFiles } from './helpers/daemon-with-files';
import { PNG_BYTES, type FileServer } from './helpers/file-server';
import type { RealDaemon } from './helpers/real-daemon';

describe('media preparation through the SDK against the real daemon', () => {
  let d: RealDaemon;
  let files: FileServer;
  let client: SocialPub;

  beforeAll(async () => {
    // Room in the status class for polls that come at every turn of the event loop.
    ({ d, files, client } = await startDaemonWithFiles({ rateLimits: { media_status: { limit: 100_000 } } }));
  });
  afterAll(async () => {
    await d?.close();
    await files?.close();
  });

  it('prepares an image, reports progress, and serves the prepared copy', async () => {
    const started = await client.media.prepare({ urls: [`${files.url}/photo.png`] });
    expect(started.task_id).toMatch(/^task_/);
    const seen: MediaStatus['status'][] = [];
    const task = await client.media.waitUntilReady(started.task_id, { onProgress: (s) => seen.push(s.status) });
    expect(task.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    if (task.status !== 'completed') return;
    const [file] = task.files;
    expect(file).toMatchObject({ original_url: `${files.url}/photo.png`, type: 'image', mime_type: 'image/png', size: PNG_BYTES.length });
    expect(task.failed).toEqual([]);
    const served = await fetch(file?.prepared_url ?? '');
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect((await client.media.status(started.task_id)).status).toBe('completed');
  });

  it('completes a partly failed task and lists the file it refused', async () => {
    const { task_id } = await client.media.prepare({ urls: [`${files.url}/photo.png`, `${files.url}/login.html`] });
    const task = await client.media.waitUntilReady(task_id);
    expect(task.status).toBe('completed');
    expect(task.files).toHaveLength(1);
    expect(task.failed).toEqual([{ original_url: `${files.url}/login.html`, error: expect.objectContaining({ code: 'html_page' }) }]);
  });

  it('resolves with a failed task when no file could be prepared', async () => {
    const { task_id } = await client.media.prepare({ urls: [`${files.url}/login.html`] });
    const task = await client.media.waitUntilReady(task_id);
    expect(task.status).toBe('failed');
    expect(task.failed[0]?.error.code).toBe('html_page');
  });

  it('replays a prepare sent again with the same idempotency key', async () => {
    const body = { urls: [`${files.url}/photo.png`] };
    const first = await client.media.prepare(body, { idempotencyKey: 'media-key-1' });
    const again = await client.media.prepare(body, { idempotencyKey: 'media-key-1' });
    expect(again.task_id).toBe(first.task_id);
  });

  it('answers NotFoundError for an unknown task', async () => {
    await expect(client.media.status('task_unknown')).rejects.toBeInstanceOf(NotFoundError);
  });
});
