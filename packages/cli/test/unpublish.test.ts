import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';
import { Terminal } from './terminal';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter', 'threads');
});
afterAll(async () => {
  await t.stop();
});

/** Publishes now and waits until every target is out; returns the job id. */
async function published(caption: string, platforms: string): Promise<string> {
  const r = await t.run(['publish', caption, '-p', platforms, '--now', '--wait', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json<{ job_id: string }>().job_id;
}

interface Answer {
  job_id: string;
  changed: boolean;
  message: string;
  targets: { platform: string; result: string; status: string }[];
  post: { status: string };
}

describe('socialpub unpublish', () => {
  it('takes a job down with --yes --json, then says nothing changed', async () => {
    const jobId = await published('down with --yes', 'twitter,threads');
    const r = await t.run(`unpublish ${jobId} --yes --json`);
    expect(r.code, r.stderr).toBe(0);
    const answer = r.json<Answer>();
    expect(answer.changed).toBe(true);
    expect(answer.targets.map((x) => [x.platform, x.result, x.status])).toEqual([
      ['twitter', 'removed', 'removed'],
      ['threads', 'removed', 'removed'],
    ]);
    expect(answer.post.status).toBe('removed');
    expect((await t.run(`schedule show ${jobId} --json`)).json<{ status: string }>().status).toBe('removed');

    const again = await t.run(`unpublish ${jobId} --yes`);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Nothing changed: every published post of ${jobId} was already taken down`);
    expect(again.stdout).toMatch(/twitter\.tweet {2}already removed/);

    const sandbox = (await t.run('sandbox posts --json')).json<{ posts: { post_id: string; removed_at: string | null }[] }>();
    const ids = (await t.run(`schedule show ${jobId} --json`)).json<{ targets: { post_id: string }[] }>().targets.map((x) => x.post_id);
    expect(sandbox.posts.filter((p) => ids.includes(p.post_id)).map((p) => typeof p.removed_at)).toEqual(['string', 'string']);
    expect((await t.run('sandbox posts --platform twitter')).stdout).toMatch(/tweet \(removed \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('prints the summary and a line per target', async () => {
    const jobId = await published('one tweet to take down', 'twitter');
    const r = await t.run(`unpublish ${jobId} --yes`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Took down 1 post of ${jobId}`);
    expect(r.stdout).toMatch(/twitter\.tweet {2}removed/);
  });

  it('refuses without a terminal unless --yes, and under --json without --yes', async () => {
    const jobId = await published('needs a yes', 'twitter');
    const plain = await t.run(`unpublish ${jobId}`);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('missing --yes');
    const json = await t.run(`unpublish ${jobId} --json`);
    expect(json.code).toBe(2);
    expect((await t.run(`schedule show ${jobId} --json`)).json<{ status: string }>().status).toBe('published');
  });

  it('asks in a terminal, shows the posts, and takes nothing down when declined (exit 130)', async () => {
    const jobId = await published('ask me first', 'twitter');
    const term = new Terminal();
    const run = t.run(['unpublish', jobId], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    const screen = await term.until('This cannot be undone.');
    expect(screen).toContain(`${jobId} has 1 published post:`);
    expect(screen).toMatch(/twitter\.tweet {2}https:\/\/x\.com\//);
    term.type('n');
    term.key('enter');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('nothing taken down');
    expect((await t.run(`schedule show ${jobId} --json`)).json<{ status: string }>().status).toBe('published');

    const term2 = new Terminal();
    const yes = t.run(['unpublish', jobId], { interactive: true, stdin: term2.stdin, onStderr: term2.onStderr });
    await term2.until('This cannot be undone.');
    term2.type('y');
    term2.key('enter');
    expect((await yes).code).toBe(0);
    expect((await t.run(`schedule show ${jobId} --json`)).json<{ status: string }>().status).toBe('removed');
  });

  it('exits 5 for a job with nothing published and 4 for an unknown job', async () => {
    const scheduled = (await t.run('publish "later" -p twitter --at +5h --json')).json<{ job_id: string }>().job_id;
    expect((await t.run(`unpublish ${scheduled} --yes`)).code).toBe(5);
    expect((await t.run('unpublish job_nope --yes')).code).toBe(4);
  });
});
