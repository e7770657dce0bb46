import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config';
import { startDaemon } from '../../../src/daemon';
import { sandboxBoards } from '../../../src/platforms/pinterest/sim/sandbox-boards';
import { readSandboxEndpoints } from '../../../src/platforms/sandbox';
import { createLogger } from '../../../src/util/logger';
import { useTempDirs } from '../../support/temp-dirs';
import { fakeBytes } from '../shared/harness';

/**
 * `socialpub down && socialpub up` keeps the Pinterest simulator where it was: the daemon
 * is stopped and started on the same data dir, and the simulator is asked, at its own
 * origin, for the account's boards, a pin made before, and a video registered before whose
 * upload goes on after.
 */
const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const quiet = { logger: createLogger({ write: () => undefined }) };
const TOKEN = 'sandbox_at_restartpin.secret';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const get = async (url: string) => (await fetch(url, { headers })).json() as Promise<Record<string, unknown>>;
const post = async (url: string, body: unknown) => (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;

describe('the Pinterest simulator across a restart', () => {
  it('keeps boards, pins, media uploads in progress and ids', async () => {
    const dir = tempDir('sp-pinterest-restart-');
    const first = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    const api = readSandboxEndpoints(first.store.settings)['api.pinterest.com']!;
    const boards = ((await get(`${api}/v5/boards`)).items as Array<{ id: string; name: string }>).map((b) => ({ id: b.id, name: b.name }));
    // The boards are the ones the daemon lists for the connection (derived from its account key).
    expect(boards).toEqual(sandboxBoards('restartpin'));
    const pin = await post(`${api}/v5/pins`, { board_id: boards[0]!.id, description: 'Before', media_source: { source_type: 'image_url', url: 'https://example.com/a.jpg' } });
    const media = await post(`${api}/v5/media`, { media_type: 'video' });
    await first.close();

    const again = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    closers.push(() => again.close());
    const api2 = readSandboxEndpoints(again.store.settings)['api.pinterest.com']!;
    expect(api2).toBe(api);
    expect(((await get(`${api}/v5/boards`)).items as Array<{ id: string }>).map((b) => b.id)).toEqual(boards.map((b) => b.id));
    expect(await get(`${api}/v5/pins/${pin.id as string}`)).toMatchObject({ id: pin.id, description: 'Before', board_id: boards[0]!.id });
    expect(await get(`${api}/v5/media/${media.media_id as string}`)).toMatchObject({ status: 'registered' });

    // The upload handed out before the restart still works.
    const form = new FormData();
    for (const [k, v] of Object.entries(media.upload_parameters as Record<string, string>)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(fakeBytes('mp4', 4_000))], { type: 'video/mp4' }), 'v.mp4');
    expect((await fetch(media.upload_url as string, { method: 'POST', body: form })).status).toBe(204);
    expect(((await get(`${api}/v5/media/${media.media_id as string}`)).status as string)).toMatch(/^(processing|succeeded)$/);

    const next = await post(`${api}/v5/pins`, { board_id: boards[1]!.id, description: 'After', media_source: { source_type: 'image_url', url: 'https://example.com/b.jpg' } });
    expect(BigInt(next.id as string)).toBeGreaterThan(BigInt(pin.id as string));
  }, 60_000);
});
