import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { BSKY_HOST } from '../../src/platforms/bluesky/pds-access';
import { createBlueskySimulator } from '../../src/platforms/bluesky/sim/simulator';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { insertTarget, seedUser } from '../scheduler/harness';
import { startDaemonChild } from './spawn-daemon';

const CHILD = fileURLToPath(new URL('./bluesky-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'socialpub-bsky-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TEXTS = ['Part 1: the post', 'Part 2: a reply', 'Part 3: another', 'A first comment'];

describe('bluesky through SIGKILL between the platform call and its record', () => {
  it.each([1, 2, 3, 4])('killed once createRecord #%i is made but before its answer is recorded: 0 doubled, 0 lost', { timeout: 60_000 }, async (holdAt) => {
    // The PDS lives in this process, so what was posted survives the daemon's death.
    const sim = createBlueskySimulator({ clock: systemClock });
    let creates = 0;
    let made: () => void = () => {};
    const madeAndHeld = new Promise<void>((resolve) => (made = resolve));
    const root = new Hono();
    root.use(`/${BSKY_HOST}/xrpc/com.atproto.repo.createRecord`, async (_c, next) => {
      creates += 1;
      if (creates !== holdAt) return next();
      await next(); // the record is written...
      made();
      await new Promise(() => {}); // ...and its answer never leaves: the daemon is killed while waiting
    });
    root.route(`/${BSKY_HOST}`, sim.pds);
    const server = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const simUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const dbPath = join(dir, `socialpub-${holdAt}.db`);
    const db = openDatabase(dbPath);
    const now = Date.now();
    seedUser(db, now);
    const id = insertTarget(db, { due: now, platform: 'bluesky', caption: TEXTS[0] });
    db.prepare("UPDATE targets SET type = 'post' WHERE id = ?").run(id);
    db.prepare('UPDATE jobs SET follow_ups = ? WHERE id = (SELECT job_id FROM targets WHERE id = ?)').run(JSON.stringify({ thread: [{ caption: TEXTS[1] }, { caption: TEXTS[2] }], first_comment: TEXTS[3] }), id);

    let run = startDaemonChild(CHILD, [dbPath, simUrl]);
    await run.ready;
    await madeAndHeld;
    run.child.kill('SIGKILL');
    expect(await run.exited).toBeNull();
    expect(sim.log.posts).toHaveLength(holdAt);

    run = startDaemonChild(CHILD, [dbPath, simUrl]);
    await run.ready;
    const status = db.prepare('SELECT status FROM targets WHERE id = ?').pluck();
    const deadline = Date.now() + 30_000;
    while (!['published', 'needs_review', 'failed'].includes(status.get(id) as string) && Date.now() < deadline) await wait(100);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    const row = db.prepare('SELECT status, post_id, follow_ups FROM targets WHERE id = ?').get(id) as { status: string; post_id: string; follow_ups: string };
    const posts = sim.log.posts;
    // Each text once, each a reply where it should be: the record made before the kill was found, not made again.
    expect(posts.map((p) => p.body.text)).toEqual(TEXTS);
    expect(new Set(posts.map((p) => p.postId)).size).toBe(4);
    expect(posts.map((p) => p.body.in_reply_to ?? null)).toEqual([null, posts[0]!.postId, posts[1]!.postId, posts[0]!.postId]);
    expect(row.status).toBe('published');
    expect(row.post_id).toBe(posts[0]!.postId);
    const fu = JSON.parse(row.follow_ups) as { thread: { part: number; post_id: string }[]; comment?: { id?: string; error?: string } };
    expect(fu.thread.map((p) => p.post_id)).toEqual(posts.slice(0, 3).map((p) => p.postId));
    // The comment too is found at its key after the kill, not reported as interrupted.
    expect(fu.comment).toMatchObject({ id: posts[3]!.postId });
    db.close();
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  });
});
