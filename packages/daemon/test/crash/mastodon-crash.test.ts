import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createMastodonSimulator, MASTODON_HOST } from '../../src/platforms/mastodon/sim/simulator';
import type { RecordedRequest } from '../../src/platforms/shared/sim/simulator-recorder';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { insertTarget, seedUser } from '../scheduler/harness';
import { crashDir, JPEG, killHard, serveSimulators, startReady, stopWhen, wait } from './crash-setup';

const CHILD = fileURLToPath(new URL('./mastodon-child.ts', import.meta.url));
const dir = crashDir('socialpub-mastodon-crash-');

const body = (r: RecordedRequest) => (r.body ?? {}) as Record<string, unknown>;
const isStatus = (text: string) => (r: RecordedRequest) => r.method === 'POST' && r.path === '/api/v1/statuses' && body(r).status === text;

/**
 * Every step that creates something on the server, in order: the image upload, the status,
 * thread parts 2 and 3, the first comment. The daemon is killed after the server made each
 * and before its answer arrived (the moment between the platform call and its record).
 */
const STEPS: Array<{ name: string; matches: (r: RecordedRequest) => boolean }> = [
  { name: 'media upload', matches: (r) => r.method === 'POST' && r.path === '/api/v2/media' },
  { name: 'status', matches: isStatus('The post') },
  { name: 'thread part 2', matches: isStatus('Part 2') },
  { name: 'thread part 3', matches: isStatus('Part 3') },
  { name: 'first comment', matches: isStatus('Comments welcome') },
];

describe('mastodon through SIGKILLs', () => {
  it('killed after the server made each thing and before the daemon recorded it, posts every status exactly once', { timeout: 90_000 }, async () => {
    // The simulator lives in this process, so what was posted survives the daemon's death.
    const sim = createMastodonSimulator({ clock: systemClock, processingMs: 0 });
    let hold: ((r: RecordedRequest) => boolean) | null = null;
    let held: () => void = () => {};
    const root = new Hono();
    root.use(`/${MASTODON_HOST}/*`, async (_c, next) => {
      await next();
      const rec = sim.log.requests.at(-1);
      if (hold && rec && hold(rec)) {
        hold = null;
        held();
        await new Promise(() => {}); // made, never answered: the daemon is killed while waiting
      }
    });
    root.route(`/${MASTODON_HOST}`, sim.app);
    const server = await serveSimulators(root);
    const simUrl = server.url;

    const dbPath = join(dir, 'socialpub.db');
    const image = join(dir, 'photo.jpg');
    writeFileSync(image, JPEG);
    const db = openDatabase(dbPath);
    const now = Date.now();
    seedUser(db, now);
    const id = insertTarget(db, { due: now, platform: 'mastodon', caption: 'The post', mediaUrls: ['https://cdn.example.com/photo.jpg'] });
    db.prepare("UPDATE targets SET type = 'post' WHERE id = ?").run(id);
    db.prepare("UPDATE jobs SET follow_ups = ?, platform_options = ? WHERE id = (SELECT job_id FROM targets WHERE id = ?)").run(
      JSON.stringify({ thread: [{ caption: 'Part 2' }, { caption: 'Part 3' }], first_comment: 'Comments welcome' }),
      JSON.stringify({ mastodon: { visibility: 'unlisted', alt_text: 'A grey square' } }),
      id,
    );

    const killedAt: string[] = [];
    for (const step of STEPS) {
      const arrived = new Promise<void>((resolve) => (held = resolve));
      hold = step.matches;
      const run = await startReady(CHILD, [dbPath, simUrl, image]);
      await Promise.race([arrived, wait(30_000).then(() => Promise.reject(new Error(`the ${step.name} never came`)))]);
      await killHard(run);
      killedAt.push(step.name);
    }
    const run = await startReady(CHILD, [dbPath, simUrl, image]);
    const status = db.prepare('SELECT status FROM targets WHERE id = ?').pluck();
    await stopWhen(run, () => status.get(id) === 'published', 30_000);

    expect(killedAt).toEqual(STEPS.map((s) => s.name));
    const posts = sim.log.posts;
    // Each status once (0 doubled), all of them there (0 lost), each reply under the one before.
    expect(posts.map((p) => p.body.status)).toEqual(['The post', 'Part 2', 'Part 3', 'Comments welcome']);
    expect(posts.map((p) => p.body.in_reply_to_id ?? null)).toEqual([null, posts[0]!.postId, posts[1]!.postId, posts[0]!.postId]);
    expect((posts[0]!.body.media_ids as string[]).length).toBe(1);
    // The resent requests were answered from their Idempotency-Key: the server made nothing twice.
    const sends = sim.log.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/statuses');
    expect(sends.length).toBeGreaterThan(posts.length);
    const row = db.prepare('SELECT status, post_id, follow_ups FROM targets WHERE id = ?').get(id) as { status: string; post_id: string; follow_ups: string };
    expect(row.status).toBe('published');
    expect(row.post_id).toBe(posts[0]!.postId);
    const fu = JSON.parse(row.follow_ups) as { thread: { part: number; post_id: string }[]; comment: { id: string } };
    expect(fu.thread.map((p) => p.post_id)).toEqual(posts.slice(0, 3).map((p) => p.postId));
    expect(fu.comment.id).toBe(posts[3]!.postId);
    console.log('mastodon crash test:', JSON.stringify({ kills: killedAt.length, statuses: posts.length, statusRequests: sends.length, doubled: posts.length - new Set(posts.map((p) => p.body.status)).size }));
    db.close();
    server.close();
  });
});
