import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createTwitterSimulator, X_HOST } from '../../src/platforms/twitter/sim/simulator';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { insertTarget, seedUser } from '../scheduler/harness';
import { crashDir, JPEG, killHard, serveSimulators, startReady, stopWhen } from './crash-setup';

const CHILD = fileURLToPath(new URL('./thread-child.ts', import.meta.url));
const dir = crashDir('socialpub-thread-crash-');


describe('a thread through a crash', () => {
  it('SIGKILLed after part 2 of 4, resumes with part 3 and posts nothing twice', { timeout: 60_000 }, async () => {
    // The X simulator lives in this process, so what was posted survives the daemon's death.
    const sim = createTwitterSimulator({ clock: systemClock });
    let holdUploads = true;
    let uploadHeld: () => void = () => {};
    const uploadArrived = new Promise<void>((resolve) => (uploadHeld = resolve));
    const root = new Hono();
    // Part 3 is the first with media: its upload is the moment after part 2 and before part 3 is sent.
    root.use(`/${X_HOST}/2/media/upload`, async (c, next) => {
      if (!holdUploads) return next();
      uploadHeld();
      await new Promise(() => {}); // never answered: the daemon is killed while waiting
    });
    root.route(`/${X_HOST}`, sim.app);
    const server = await serveSimulators(root);
    const simUrl = server.url;

    const dbPath = join(dir, 'socialpub.db');
    const image = join(dir, 'part3.jpg');
    writeFileSync(image, JPEG);
    const db = openDatabase(dbPath);
    const now = Date.now();
    seedUser(db, now);
    const id = insertTarget(db, { due: now, platform: 'twitter', caption: 'Part 1: the post' });
    db.prepare("UPDATE targets SET type = 'tweet' WHERE id = ?").run(id);
    const thread = [{ caption: 'Part 2: first reply' }, { caption: 'Part 3: with a picture', media_urls: ['https://cdn.example.com/p3.jpg'] }, { caption: 'Part 4: the end' }];
    db.prepare('UPDATE jobs SET follow_ups = ? WHERE id = (SELECT job_id FROM targets WHERE id = ?)').run(JSON.stringify({ thread }), id);

    let run = await startReady(CHILD, [dbPath, simUrl, image]);
    await uploadArrived;
    const before = sim.log.posts.map((p) => p.postId);
    await killHard(run);
    // Killed after part 2 was out and saved, before part 3 was sent.
    expect(before).toHaveLength(2);
    const saved = JSON.parse((db.prepare('SELECT follow_ups FROM targets WHERE id = ?').pluck().get(id) as string) ?? '{}') as { thread?: { part: number; post_id: string }[] };
    expect(saved.thread?.map((p) => [p.part, p.post_id])).toEqual([
      [1, before[0]],
      [2, before[1]],
    ]);

    holdUploads = false;
    run = await startReady(CHILD, [dbPath, simUrl, image]);
    const status = db.prepare('SELECT status FROM targets WHERE id = ?').pluck();
    await stopWhen(run, () => status.get(id) === 'published', 30_000);

    const row = db.prepare('SELECT status, post_id, follow_ups FROM targets WHERE id = ?').get(id) as { status: string; post_id: string; follow_ups: string };
    const posts = sim.log.posts;
    // Four posts, no text twice, each part a reply to the one before, in order.
    expect(posts.map((p) => p.body.text)).toEqual(['Part 1: the post', 'Part 2: first reply', 'Part 3: with a picture', 'Part 4: the end']);
    expect(posts.map((p) => p.body.in_reply_to ?? null)).toEqual([null, posts[0]!.postId, posts[1]!.postId, posts[2]!.postId]);
    expect((posts[2]!.body.media as unknown[]).length).toBe(1);
    expect(row.status).toBe('published');
    expect(row.post_id).toBe(posts[0]!.postId);
    expect((JSON.parse(row.follow_ups) as { thread: { part: number; post_id: string }[] }).thread.map((p) => [p.part, p.post_id])).toEqual(posts.map((p, i) => [i + 1, p.postId]));
    const outcomes = db.prepare('SELECT outcome FROM attempts WHERE target_id = ? ORDER BY id').pluck().all(id);
    expect(outcomes).toEqual(['reconciled_not_published', 'published']);
    db.close();
    server.close();
  });
});
