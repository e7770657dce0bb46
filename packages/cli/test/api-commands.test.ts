import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['twitter', 'instagram', 'threads'] });

interface Published {
  job_id: string;
  status: string;
  scheduled_for: string | null;
  targets: { platform: string; type: string; scheduled_for: string; status: string }[];
}

const in2h = () => new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('socialpub auth validate / whoami', () => {
  it('shows whose key it is', async () => {
    const r = await t.run('auth validate');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/user:\s+tester@example.com/);
    expect(r.stdout).toMatch(/key:\s+valid/);
    const json = (await t.run('whoami --json')).json<{ valid: boolean; user: { email: string; id: string }; base_url: string }>();
    expect(json).toEqual({ valid: true, user: { email: 'tester@example.com', id: t.key.user_id }, base_url: t.daemon.url });
  });

  it('exits 3 for a key the daemon does not know, with a hint', async () => {
    const r = await t.run('whoami', { env: { SOCIALPUB_API_KEY: 'sp_key_00000000000000000000_0000000000000000000000000000000000000000' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain('hint: check the key');
  });
});

describe('socialpub platforms', () => {
  it('lists every platform with its types and the connections', async () => {
    const r = await t.run('platforms');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/instagram\s+feed\*, story, reels\s+2200\s+public URL\s+sandbox active/);
    expect(r.stdout).toMatch(/youtube\s+video\*, shorts\s+5000\s+uploaded\s+not connected/);
    const json = (await t.run('platforms --json')).json<{ platform: string }[]>();
    expect(json.map((p) => p.platform)).toEqual(['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'bluesky', 'mastodon', 'linkedin', 'pinterest']);
    expect(r.stdout).toMatch(/mastodon\s+post\*\s+500\s+uploaded\s+not connected/);
  });
});

describe('socialpub publish (flags only)', () => {
  it('schedules a staggered job: story at the base time, feed an hour later', async () => {
    const at = in2h();
    const r = await t.run(['publish', 'Story then feed', '-p', 'instagram', '--type', 'instagram=story,feed', '--media', 'https://example.com/a.jpg', '--at', at, '--offset', 'story=+0h', '--offset', 'feed=+1h', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const job = r.json<Published>();
    expect(job.status).toBe('scheduled');
    const base = Date.parse(at);
    const when = Object.fromEntries(job.targets.map((x) => [x.type, Date.parse(x.scheduled_for)]));
    expect(when).toEqual({ story: base, feed: base + 3_600_000 });
  });

  it('says a refused publish\'s one problem once, with exit 2', async () => {
    const r = await t.run(`publish ${'x'.repeat(281)} -p twitter --at +1h`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/280/);
    expect(r.stderr.split('at most 280').length - 1).toBe(1);
  });

  it('publishes now and prints a readable summary', async () => {
    const r = await t.run('publish "hello now" -p twitter --now');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✔ Publishing: job_[0-9a-z]+/);
    expect(r.stdout).toMatch(/twitter\s+tweet\s+now\s+queued/);
  });

  it('sends per-platform captions and require-approval', async () => {
    const r = await t.run(['publish', 'default caption', '-p', 'twitter,threads', '--caption-for', 'twitter=short one', '--at', '+3h', '--require-approval', '--json']);
    expect(r.code).toBe(0);
    const job = r.json<Published>();
    expect(job.status).toBe('pending_approval');
    const shown = (await t.run(`schedule show ${job.job_id} --json`)).json<{ platform_captions: Record<string, string>; require_approval: boolean }>();
    expect(shown.platform_captions).toEqual({ twitter: 'short one' });
    expect(shown.require_approval).toBe(true);
  });

  it('without a terminal, names the missing part instead of asking (exit 2)', async () => {
    const noWhen = await t.run('publish "x" -p twitter --json');
    expect(noWhen.code).toBe(2);
    expect(noWhen.json<{ error: { message: string } }>().error.message).toBe('missing --now or --at <time>');
    const noPlatforms = await t.run('publish "x" --now');
    expect(noPlatforms.code).toBe(2);
    expect(noPlatforms.stderr).toContain('missing --platforms');
    const noCaption = await t.run('publish -p twitter --now');
    expect(noCaption.stderr).toContain('missing caption');
  });

  it('refuses contradictions and unknown names locally (exit 2)', async () => {
    expect((await t.run(`publish x -p twitter --now --at ${in2h()}`)).stderr).toContain('give --now or --at, not both');
    expect((await t.run('publish x -p tumblr --now')).stderr).toContain('unknown platform "tumblr"');
    expect((await t.run('publish x -p twitter --type twitter=reels --now')).stderr).toContain('twitter has no content type "reels"');
    expect((await t.run('publish x -p twitter --caption-for threads=y --now')).stderr).toContain('threads is not among the platforms');
    expect((await t.run('publish x -p twitter --media ./no-such-file.jpg --now')).stderr).toContain('is neither a URL (https://, s3://, gs://) nor an existing file');
  });

  it("passes the daemon's validation errors through with their details (exit 2)", async () => {
    const r = await t.run('publish x -p instagram --type instagram=story --now --json');
    expect(r.code).toBe(2);
    const err = r.json<{ error: { code: string; details: { path: string }[] } }>().error;
    expect(err.code).toBe('invalid_request');
    expect(err.details.length).toBeGreaterThan(0);
  });

  it('says which platforms are not connected (exit 3)', async () => {
    const r = await t.run('publish x -p tiktok --media https://example.com/v.mp4 --now');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('hint: connect it first');
  });

  it('replays the same job for the same idempotency key', async () => {
    const at = in2h();
    const a = (await t.run(`publish once -p twitter --at ${at} --idempotency-key cli-test-1 --json`)).json<Published>();
    const b = (await t.run(`publish once -p twitter --at ${at} --idempotency-key cli-test-1 --json`)).json<Published>();
    expect(b.job_id).toBe(a.job_id);
    // Another body under the same key is a conflict, not a second job.
    const c = await t.run(`publish twice -p twitter --at ${at} --idempotency-key cli-test-1 --json`);
    expect(c.code).toBe(5);
    expect(c.json<{ error: { code: string } }>().error.code).toBe('idempotency_conflict');
  });
});

describe('socialpub schedule', () => {
  let jobId: string;
  beforeAll(async () => {
    jobId = (await t.run('publish "to manage" -p twitter --at +6h --json')).json<Published>().job_id;
  });

  it('lists jobs as a table, and as JSON with every post', async () => {
    const human = await t.run('schedule list');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^JOB\s+STATUS\s+WHEN\s+TARGETS\s+CAPTION/);
    expect(human.stdout).toContain(jobId);
    expect(human.stdout).toMatch(new RegExp(`${jobId}\\s+scheduled\\s+.+UTC\\s+twitter\\.tweet\\s+to manage`));
    const json = (await t.run('schedule list --json')).json<{ posts: { job_id: string }[] }>();
    expect(json.posts.map((p) => p.job_id)).toContain(jobId);
  });

  it('filters by status and limits the count', async () => {
    const pending = (await t.run('schedule list --status pending_approval --json')).json<{ posts: { status: string }[] }>();
    expect(pending.posts.length).toBeGreaterThan(0);
    expect(pending.posts.every((p) => p.status === 'pending_approval')).toBe(true);
    const first = (await t.run('schedule list --limit 1 --json')).json<{ posts: { job_id: string }[]; next_cursor: string }>();
    expect(first.posts).toHaveLength(1);
    const rest = (await t.run(`schedule list --cursor ${first.next_cursor} --all --json`)).json<{ posts: { job_id: string }[]; next_cursor: null }>();
    const all = (await t.run('schedule list --all --json')).json<{ posts: { job_id: string }[] }>();
    expect([...first.posts, ...rest.posts].map((p) => p.job_id)).toEqual(all.posts.map((p) => p.job_id));
    expect(rest.next_cursor).toBeNull();
    expect((await t.run('schedule list --limit 1')).stdout).toContain(`more: --limit N, --all, or --cursor ${first.next_cursor}`);
    expect((await t.run('schedule list --status needs_review')).stdout).toContain('no needs_review jobs');
    const bad = await t.run('schedule list --status sleeping --json');
    expect(bad.code).toBe(2);
  });

  it('shows one job with its targets', async () => {
    const r = await t.run(`schedule show ${jobId}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`job:\\s+${jobId}`));
    expect(r.stdout).toMatch(/PLATFORM\s+TYPE\s+WHEN\s+STATUS\s+RESULT/);
    expect((await t.run(`status ${jobId} --json`)).json<{ job_id: string }>().job_id).toBe(jobId);
  });

  it('answers an unknown job with exit 4', async () => {
    const r = await t.run('schedule show job_nosuchjob --json');
    expect(r.code).toBe(4);
    expect(r.json<{ error: { code: string } }>().error.code).toBe('not_found');
  });

  it('re-times a job', async () => {
    const at = new Date(Date.now() + 9 * 3_600_000).toISOString();
    const r = await t.run(`schedule retime ${jobId} --at ${at} --json`);
    expect(r.code).toBe(0);
    expect(r.json<{ scheduled_for: string }>().scheduled_for).toBe(at);
    expect((await t.run(`schedule retime ${jobId}`)).stderr).toContain('missing --at <time>');
    const human = await t.run(`schedule retime ${jobId} --at +10h`);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`job:\\s+${jobId}`));
    expect(human.stdout).toMatch(/twitter\s+tweet\s+.+UTC\s+scheduled/);
  });

  it('approves and rejects held jobs; approving twice is a conflict (exit 5)', async () => {
    const held = (await t.run('publish held -p twitter --at +4h --require-approval --json')).json<Published>().job_id;
    const ok = await t.run(`schedule approve ${held}`);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^✔ /);
    expect(ok.stdout.split(held).length - 1).toBe(1);
    expect((await t.run(`schedule show ${held} --json`)).json<{ status: string }>().status).toBe('scheduled');
    const again = await t.run(`schedule approve ${held} --json`);
    expect(again.code).toBe(5);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('conflict');

    const other = (await t.run('publish other -p twitter --at +4h --require-approval --json')).json<Published>().job_id;
    expect((await t.run(`schedule reject ${other} --json`)).json<{ post: { status: string } }>().post.status).toBe('cancelled');
  });

  it('asks for changes with -m, shows who decided and the thread, and an edit sends the job back for approval', async () => {
    const held = (await t.run('publish draft -p twitter --at +4h --require-approval --json')).json<Published>().job_id;
    const asked = await t.run(`schedule request-changes ${held} -m "Say 25% off"`);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain(`✔ Asked for changes to ${held}; it waits in changes_requested until it is edited`);
    expect((await t.run(`schedule show ${held} --json`)).json<{ status: string }>().status).toBe('changes_requested');
    expect((await t.run(`schedule request-changes ${held}`)).stderr).toContain("required option '-m, --message <text>' not specified");
    expect((await t.run(`schedule comment ${held} -m "On it"`)).code).toBe(0);
    const thread = await t.run(`schedule comments ${held}`);
    expect(thread.stdout).toMatch(/Changes requested by \S+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC from the CLI \(version 1\): Say 25% off/);
    expect(thread.stdout).toMatch(/UTC \S+: Say 25% off\n.*UTC \S+: On it/);
    const json = (await t.run(`schedule comments ${held} --json`)).json<{ approvals: { action: string; source: string }[]; comments: { body: string }[] }>();
    expect(json.approvals.map((a) => [a.action, a.source])).toEqual([['changes_requested', 'cli']]);
    expect(json.comments.map((c) => c.body)).toEqual(['Say 25% off', 'On it']);
    const approved = await t.run(`schedule approve ${held}`);
    expect(approved.code).toBe(0);
    expect((await t.run(`schedule show ${held}`)).stdout).toMatch(/decided:\s+Approved by \S+ at .+ from the CLI \(version 1\)/);
  });

  it('cancels a job', async () => {
    const other = (await t.run('publish "to cancel" -p twitter --at +7h --json')).json<Published>().job_id;
    const human = await t.run(`schedule cancel ${other}`);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Cancelled ${other}`);
    expect(human.stdout.split(other).length - 1).toBe(1);
    const r = await t.run(`schedule cancel ${jobId} --json`);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ job_id: jobId, status: 'cancelled' });
    expect((await t.run(`schedule show ${jobId} --json`)).json<{ status: string }>().status).toBe('cancelled');
  });
});

describe('socialpub status', () => {
  it('refuses an id that is neither a job nor a task (exit 2)', async () => {
    const r = await t.run('status abc');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('neither a job id');
  });
});
