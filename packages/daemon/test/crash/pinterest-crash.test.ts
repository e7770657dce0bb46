import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinterestSimulator, PINTEREST_API_HOST, PINTEREST_WWW_HOST } from '../../src/platforms/pinterest/sim/simulator';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { insertTarget, seedUser } from '../scheduler/harness';
import { startDaemonChild } from './spawn-daemon';

const CHILD = fileURLToPath(new URL('./pinterest-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'socialpub-pinterest-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(200_000, 9)]);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each step of the adapter, matched by method and path (below the host): the matching
 * request is carried out by the simulator and its answer never sent, and the daemon is
 * SIGKILLed after Pinterest acted and before the daemon recorded it.
 */
const STEPS: Array<{ name: string; media: 'image' | 'video'; method: string; path: RegExp }> = [
  { name: 'board list', media: 'image', method: 'GET', path: /^\/v5\/boards$/ },
  { name: 'image pin', media: 'image', method: 'POST', path: /^\/v5\/pins$/ },
  { name: 'video registration', media: 'video', method: 'POST', path: /^\/v5\/media$/ },
  { name: 'video upload', media: 'video', method: 'POST', path: /^\/media-uploads\/$/ },
  { name: 'video status', media: 'video', method: 'GET', path: /^\/v5\/media\/\d+$/ },
  { name: 'video pin', media: 'video', method: 'POST', path: /^\/v5\/pins$/ },
];

describe('Pinterest through a SIGKILL at every step', () => {
  it.each(STEPS)('killed after Pinterest answered $name and before the record: 0 doubled, 0 lost', { timeout: 60_000 }, async (step) => {
    const sim = createPinterestSimulator({ clock: systemClock, processingMs: 300 });
    let holding = true;
    let held: () => void = () => {};
    const killMoment = new Promise<void>((resolve) => (held = resolve));
    const root = new Hono();
    root.use(`/${PINTEREST_API_HOST}/*`, async (c, next) => {
      const path = new URL(c.req.url).pathname.slice(PINTEREST_API_HOST.length + 1);
      const match = holding && c.req.method === step.method && step.path.test(path);
      if (match) holding = false;
      await next();
      if (!match) return;
      // Pinterest did it; the answer never reaches the daemon, which dies waiting.
      held();
      await new Promise(() => {});
    });
    root.route(`/${PINTEREST_API_HOST}`, sim.api);
    root.route(`/${PINTEREST_WWW_HOST}`, sim.www);
    const server = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const simUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const run = join(dir, step.name.replace(/\W+/g, '-'));
    const image = `${run}.jpg`;
    const video = `${run}.mp4`;
    writeFileSync(image, JPEG);
    writeFileSync(video, MP4);
    const dbPath = `${run}.db`;
    const db = openDatabase(dbPath);
    const now = Date.now();
    seedUser(db, now);
    const caption = `Crash at ${step.name} (exactly once)`;
    const id = insertTarget(db, { due: now, platform: 'pinterest', caption, mediaUrls: [step.media === 'video' ? 'https://cdn.example.com/v.mp4' : 'https://cdn.example.com/p.jpg'] });
    db.prepare('UPDATE targets SET type = ? WHERE id = ?').run(step.media === 'video' ? 'video_pin' : 'pin', id);
    const options = { pinterest: { title: `Step ${step.name}`, link: 'https://shop.example/p', ...(step.media === 'video' ? { cover_key_frame_sec: 1 } : {}) } };
    db.prepare('UPDATE jobs SET platform_options = ? WHERE id = (SELECT job_id FROM targets WHERE id = ?)').run(JSON.stringify(options), id);

    const args = [dbPath, simUrl, image, video];
    let child = startDaemonChild(CHILD, args);
    await child.ready;
    await killMoment;
    child.child.kill('SIGKILL');
    expect(await child.exited).toBeNull();

    child = startDaemonChild(CHILD, args);
    await child.ready;
    const row = db.prepare('SELECT status, post_id FROM targets WHERE id = ?');
    const done = () => ['published', 'failed', 'needs_review'].includes((row.get(id) as { status: string }).status);
    const deadline = Date.now() + 40_000;
    while (!done() && Date.now() < deadline) await wait(100);
    child.child.kill('SIGTERM');
    expect(await child.exited).toBe(0);

    const final = row.get(id) as { status: string; post_id: string | null };
    const outcomes = db.prepare('SELECT outcome FROM attempts WHERE target_id = ? ORDER BY id').pluck().all(id);
    db.close();
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();

    // 0 doubled: one pin with this description. 0 lost: the target is published as that pin.
    expect(sim.pins().map((p) => [p.description, p.title])).toEqual([[caption, `Step ${step.name}`]]);
    expect(final.status, JSON.stringify({ final, outcomes })).toBe('published');
    expect(final.post_id).toBe(sim.pins()[0]!.id);
    console.log(`pinterest crash at ${step.name}:`, JSON.stringify({ outcomes, pins: sim.pins().length, media: step.media === 'video' ? sim.log.to('POST', '/v5/media').length : 0 }));
  });
});
