import { ManualClock } from '@socialpub/daemon';
import { SocialPub, type Post } from '@socialpub/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PNG_BYTES } from './helpers/file-server';
import { countedIn, countedRequests } from '../../cli/test/counted-requests';
import { startRealDaemon, type RealDaemon } from './helpers/real-daemon';

/** Poll options that would spend dozens of requests in a second if the waits polled. */
const POLL_FAST = { interval: 10, maxInterval: 10 };

/**
 * Issue 35: the SDK's waits follow the event stream, so a wait of any length costs at most
 * 3 counted requests (the stream, a read when it opens, a read when the events say it is
 * done); a job's wait, whose stream carries the post (`with_post`), the stream alone. Counted as the daemon counts them: its rate windows, every class, with the
 * default limits on. The daemon's clock is a ManualClock moved by the test, so a 40-minute
 * wait takes a moment.
 */
const counted = (d: RealDaemon): number => countedRequests(d.dataDir);
/** The scheduled-content class (100 an hour): the stream carries the post (`with_post`), so a wait reads none of it. */
const scheduledClass = (d: RealDaemon): number => countedIn(d.dataDir, 'scheduled');

/** Moves the daemon's clock in steps, letting real I/O (the sandbox, the stream) happen between them, until `done` or the steps run out. */
async function advanceWhile(clock: ManualClock, pending: () => boolean, stepMs: number, steps: number): Promise<void> {
  for (let i = 0; i < steps && pending(); i++) {
    await clock.advance(stepMs);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('waits spend no one\'s budget', () => {
  let d: RealDaemon | undefined;
  afterEach(async () => {
    await d?.close();
    d = undefined;
  });

  it('waitUntilDone for a post 40 minutes ahead costs one counted request, none of the scheduled-content class', async () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 25, 10, 0, 30));
    d = await startRealDaemon({ clock, connect: ['twitter'] });
    const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
    const job = await client.content.publish({ caption: 'Forty minutes on', platforms: ['twitter'], scheduled_for: new Date(clock.now() + 40 * 60_000).toISOString() });
    const before = counted(d);
    const scheduledBefore = scheduledClass(d);
    const states: string[] = [];
    let result: Post | undefined;
    const waiting = client.scheduled.waitUntilDone(job.job_id, { ...POLL_FAST, onProgress: (p) => states.push(p.status) }).then((p) => (result = p));
    await advanceWhile(clock, () => result === undefined, 30_000, 200);
    await waiting;
    expect(result?.status).toBe('published');
    expect(result?.targets[0]?.post_id).toMatch(/./);
    expect(states[0]).toBe('scheduled');
    expect(states.at(-1)).toBe('published');
    expect(counted(d) - before).toBe(1);
    expect(scheduledClass(d) - scheduledBefore).toBe(0);
  }, 60_000);

  it("waitUntilDone for a post X's rate limit holds shows the hold, and still costs one counted request, none of the scheduled-content class", async () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 25, 10, 0, 30));
    d = await startRealDaemon({ clock, connect: ['twitter'] });
    const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
    await client.sandbox.setFaults({ twitter: { rate_limited: 1 } });
    const job = await client.content.publish({ caption: 'Held by X', platforms: ['twitter'], publish_now: true });
    const before = counted(d);
    const scheduledBefore = scheduledClass(d);
    const seen: Post[] = [];
    let result: Post | undefined;
    const waiting = client.scheduled.waitUntilDone(job.job_id, { ...POLL_FAST, onProgress: (p) => seen.push(p) }).then((p) => (result = p));
    // Until the 429 came back and the wait shows it.
    await advanceWhile(clock, () => !seen.some((p) => p.targets[0]?.hold), 1_000, 100);
    const held = seen.find((p) => p.targets[0]?.hold)!.targets[0]!;
    expect(held.status).toBe('scheduled');
    expect(held.hold).toMatchObject({ reason: 'rate_limit', message: expect.stringContaining('X rate limit reached') });
    expect(Date.parse(held.next_attempt_at!)).toBeGreaterThan(clock.now() + 10 * 60_000);
    const cleared = counted(d);
    await client.sandbox.clearFaults();
    const clearing = counted(d) - cleared;
    await advanceWhile(clock, () => result === undefined, 60_000, 60);
    await waiting;
    expect(result?.status).toBe('published');
    expect(result?.targets[0]).toMatchObject({ next_attempt_at: null, hold: null });
    expect(counted(d) - before - clearing).toBe(1);
    expect(scheduledClass(d) - scheduledBefore).toBe(0);
  }, 60_000);

  it("media.waitUntilReady follows the task's events: at most 3 counted requests over a slow fetch", async () => {
    // A media source that answers after 1.5 s: the task stays processing that long.
    const slow = createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG_BYTES.length) });
        res.end(PNG_BYTES);
      }, 1_500);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    vi.stubEnv('SOCIALPUB_MEDIA_ALLOW_PRIVATE', '1');
    try {
      d = await startRealDaemon();
    } finally {
      vi.unstubAllEnvs();
    }
    try {
      const client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
      const task = await client.media.prepare({ urls: [`http://127.0.0.1:${(slow.address() as AddressInfo).port}/photo.png`] });
      const before = counted(d);
      const done = await client.media.waitUntilReady(task.task_id, POLL_FAST);
      expect(done.status).toBe('completed');
      expect(done.files).toHaveLength(1);
      expect(counted(d) - before).toBeLessThanOrEqual(3);
    } finally {
      slow.close();
    }
  }, 60_000);
});
