import { ManualClock, openDatabase } from '@socialpub/daemon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedIn, countedRequests } from './counted-requests';
import { startTestDaemon, type TestDaemon } from './daemon-harness';

/**
 * Issue 35: `publish --wait` follows the job's events, which carry the post itself
 * (`with_post`), so a wait of any length costs one counted request, the stream, and none of
 * the scheduled-content class (counted as the daemon counts them, in its rate windows, with
 * the limits on); a target a platform's 429 holds is shown with what holds it and until
 * when. The daemon's clock is a ManualClock the test moves while the command waits.
 */
const clock = new ManualClock(Date.UTC(2026, 11, 25, 10, 0, 30));
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ rateLimits: true, clock });
  t.connect('twitter');
});
afterAll(async () => {
  await t?.stop();
});

const counted = (): number => countedRequests(t.dataDir);
/** The scheduled-content class (100 an hour) that `schedule list` and `status` need. */
const scheduledClass = (): number => countedIn(t.dataDir, 'scheduled');

/** Runs a command while moving the daemon's clock in steps (real I/O between them) until it ends. */
async function runWhileMoving(line: string, stepMs: number, steps: number) {
  let ended = false;
  const running = t.run(line).finally(() => (ended = true));
  for (let i = 0; i < steps && !ended; i++) {
    await clock.advance(stepMs);
    await new Promise((r) => setTimeout(r, 5));
  }
  return running;
}

describe('waits spend no one\'s budget', () => {
  it('publish --wait for a post 40 minutes ahead costs the publish and one counted request, none of the scheduled-content class', async () => {
    const at = new Date(clock.now() + 40 * 60_000).toISOString();
    const before = counted();
    const scheduledBefore = scheduledClass();
    const r = await runWhileMoving(`publish "forty minutes on" -p twitter --at ${at} --wait --json`, 30_000, 400);
    expect(r.code, r.stderr).toBe(0);
    const post = r.json<{ status: string; targets: { post_url: string | null }[] }>();
    expect(post.status).toBe('published');
    expect(post.targets[0]!.post_url).toMatch(/^https:\/\/x\.com\//);
    // The publish itself, then the wait: its event stream alone.
    expect(counted() - before - 1).toBe(1);
    expect(scheduledClass() - scheduledBefore).toBe(0);
  }, 60_000);

  it("schedule show names the rate limit that holds a target, and until when; following it through the pause costs one counted request, none of the scheduled-content class", async () => {
    expect((await t.run('sandbox faults set twitter:429=1 --json')).code).toBe(0);
    const published = await t.run('publish "held by X" -p twitter --now --json');
    expect(published.code, published.stderr).toBe(0);
    const jobId = published.json<{ job_id: string }>().job_id;
    for (let i = 0; i < 100; i++) {
      const db = openDatabase(`${t.dataDir}/socialpub.db`);
      const row = db.prepare('SELECT attempts, status FROM targets WHERE job_id = ?').get(jobId) as { attempts: number; status: string };
      db.close();
      if (row.attempts >= 1 && row.status === 'scheduled') break;
      await clock.advance(1_000);
      await new Promise((r) => setTimeout(r, 5));
    }
    const show = await t.run(`schedule show ${jobId}`);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/twitter\.tweet: waiting for X's rate limit until (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(X rate limit reached/);
    const json = (await t.run(`schedule show ${jobId} --json`)).json<{ targets: { next_attempt_at: string; hold: { reason: string } }[] }>();
    expect(Date.parse(json.targets[0]!.next_attempt_at)).toBeGreaterThan(clock.now());
    expect(json.targets[0]!.hold.reason).toBe('rate_limit');

    // Waiting for it through the pause: the faults cleared, the clock moved past X's reset.
    expect((await t.run('sandbox faults clear --json')).code).toBe(0);
    const before = counted();
    const scheduledBefore = scheduledClass();
    const r = await runWhileMoving(`schedule show ${jobId} --follow --json`, 30_000, 200);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { status?: string; type?: string });
    expect(lines.at(-1)!.status).toBe('published');
    // Every event of the job printed as it came (the kept ones first), the post last.
    expect(lines.slice(0, -1).map((l) => l.type)).toEqual(expect.arrayContaining(['post.accepted', 'target.retrying', 'target.published', 'post.finished']));
    expect(counted() - before).toBe(1);
    expect(scheduledClass() - scheduledBefore).toBe(0);
  }, 60_000);
});
