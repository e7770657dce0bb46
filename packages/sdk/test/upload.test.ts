import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { APIError, AuthenticationError, PayloadTooLargeError, SocialPub, type MediaUploadResponse } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { PNG_BYTES } from './helpers/file-server';
import { startRealDaemon, type RealDaemon } from './helpers/real-daemon';

const CAP = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
// An MP4 header (ftyp isom) and filler: a video as far as the daemon's sniffing goes.
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isommp41', 'latin1'), Buffer.alloc(200_000, 7)]);

describe('media.upload() against the real daemon', () => {
  let d: RealDaemon;
  let client: SocialPub;
  let dir: string;

  beforeAll(async () => {
    d = await startRealDaemon({ mediaMaxBytes: CAP });
    client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
    dir = await mkdtemp(join(tmpdir(), 'socialpub-sdk-upload-'));
  });
  afterAll(async () => {
    await d?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const served = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

  it('uploads a file by path, named after it, and resolves with the completed task', async () => {
    const path = join(dir, 'Summer clip.mp4');
    await writeFile(path, MP4);
    const task = await client.media.upload(path);
    expectTypeOf(task).toEqualTypeOf<MediaUploadResponse>();
    expect(task).toMatchObject({ status: 'completed', progress: { total: 1, completed: 1, failed: 0 }, failed: [] });
    const [file] = task.files;
    expect(file).toMatchObject({ original_url: 'upload:Summer-clip.mp4', type: 'video', mime_type: 'video/mp4', size: MP4.length, sha256: sha(MP4) });
    expect(sha(await served(file?.prepared_url ?? ''))).toBe(sha(MP4));
    // The task is a media task like any other.
    expect(await client.media.status(task.task_id)).toEqual(task);
  });

  it('runs the media.upload() example of docs/sdk.md as written (it publishes)', async () => {
    const doc = await readFile(new URL('../../../docs/sdk.md', import.meta.url), 'utf8');
    const block = /### `media\.upload\(\)`\n\n```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toContain('client.content.publish(');
    // TypeScript's non-null assertions are the only syntax of the snippet plain JavaScript lacks.
    const code = (block ?? '').replace(/\]!\./g, '].').replace(/await client\.content\.publish\(/, 'return await client.content.publish(');
    await writeFile(join(dir, 'clip.mp4'), MP4);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const run = new Function('client', 'buffer', 'readable', `return (async () => {\n${code}\n})();`) as (...a: unknown[]) => Promise<{ status: string }>;
      const published = await run(client, PNG_BYTES, Readable.from([MP4]));
      expect(published.status).toBe('publishing');
    } finally {
      process.chdir(cwd);
    }
  });

  it('uploads a Buffer with a name and a content type', async () => {
    const task = await client.media.upload(PNG_BYTES, { filename: 'dot.png', contentType: 'image/png' });
    expect(task.files[0]).toMatchObject({ original_url: 'upload:dot.png', type: 'image', mime_type: 'image/png', sha256: sha(PNG_BYTES) });
  });

  it('uploads a Readable stream and an async iterable of chunks', async () => {
    const task = await client.media.upload(Readable.from([MP4.subarray(0, 1000), MP4.subarray(1000)]), { filename: 'stream.mp4' });
    expect(task.files[0]?.sha256).toBe(sha(MP4));
    async function* chunks() {
      yield MP4.subarray(0, 10);
      yield MP4.subarray(10);
    }
    expect((await client.media.upload(chunks(), { filename: 'gen.mp4' })).files[0]?.sha256).toBe(sha(MP4));
  });

  it('sends one Idempotency-Key per call, so the same call repeated with a key replays the task', async () => {
    const first = await client.media.upload(PNG_BYTES, { filename: 'k.png', idempotencyKey: 'sdk-upload-1' });
    const again = await client.media.upload(PNG_BYTES, { filename: 'k.png', idempotencyKey: 'sdk-upload-1' });
    expect(again.task_id).toBe(first.task_id);
  });

  it('throws a 415 APIError with the media code for an HTML page', async () => {
    const error = await client.media.upload(Buffer.from('<!DOCTYPE html><html><body>sign in</body></html>'), { filename: 'x.jpg' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type', details: [{ code: 'html_page' }] });
  });

  it('throws PayloadTooLargeError past the daemon cap', async () => {
    const big = Buffer.concat([MP4, Buffer.alloc(CAP)]);
    await expect(client.media.upload(big, { filename: 'big.mp4', maxRetries: 0 })).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('fails before sending when the path is not a file or no key is set', async () => {
    await expect(client.media.upload(dir)).rejects.toThrow(/is not a file/);
    await expect(client.media.upload(join(dir, 'missing.png'))).rejects.toThrow(/ENOENT/);
    const keyless = new SocialPub({ baseUrl: d.url, apiKey: undefined });
    await expect(keyless.media.upload(PNG_BYTES)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('stops when aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(client.media.upload(PNG_BYTES, { signal: ctrl.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
