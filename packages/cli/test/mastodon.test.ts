import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { Terminal } from './terminal';

const t = useTestDaemon({ connect: ['mastodon'] });

interface SandboxPostJson {
  platform: string;
  post_id: string;
  post_url: string;
  body: Record<string, unknown>;
}

describe('socialpub and mastodon through the sandbox', () => {
  it('publishes a status now, waits for it, and prints its URL', async () => {
    const r = await t.run('publish "hello fediverse" -p mastodon --now --wait');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^https:\/\/mastodon\.social\/@sandbox_\d+\/\d+$/);
    expect(r.stderr).toMatch(/✔ mastodon\.post: published https:\/\/mastodon\.social\//);
  });

  it('sends the options given with --option, and sandbox posts shows them', async () => {
    const r = await t.run(['publish', 'behind a warning', '-p', 'mastodon', '--now', '--wait', '--option', 'mastodon.visibility=unlisted', '--option', 'mastodon.spoiler_text=Spoilers', '--option', 'mastodon.language=en']);
    expect(r.code, r.stderr).toBe(0);
    const posts = (await t.run('sandbox posts --platform mastodon --json')).json<{ posts: SandboxPostJson[] }>().posts;
    expect(posts.at(-1)!.body).toMatchObject({ status: 'behind a warning', visibility: 'unlisted', spoiler_text: 'Spoilers', language: 'en' });
    const table = await t.run('sandbox posts --platform mastodon');
    expect(table.stdout).toMatch(/mastodon\s+status\s+.+behind a warning\s+.*visibility=unlisted spoiler_text=Spoilers language=en/);
  });

  it("refuses a status over the server's limit with exit 2, naming the caption", async () => {
    const r = await t.run(`publish ${'x'.repeat(501)} -p mastodon --at +1h`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the Mastodon server takes statuses of at most 500 characters; this one counts 501');
  });

  it('lists mastodon.social among the sandbox endpoints and mastodon among the platforms, with its server', async () => {
    const endpoints = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string> }>();
    expect(endpoints.endpoints['mastodon.social']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const platforms = (await t.run('platforms --json')).json<Array<{ platform: string; caption: { max: number }; connection: { server?: string } | null }>>();
    const m = platforms.find((p) => p.platform === 'mastodon')!;
    expect(m.caption.max).toBe(500);
    expect(m.connection?.server).toBe('https://mastodon.social');
  });

  it("asks the status's visibility in a terminal", async () => {
    const term = new Terminal();
    const run = t.run(['publish', 'Asked in a terminal', '-p', 'mastodon'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    await term.until('When?');
    await term.until('at a time…');
    term.key('down');
    term.key('enter');
    await term.until('Time (');
    term.type('+2h');
    term.key('enter');
    await term.until('Who sees the Mastodon status?');
    await term.until('direct (only the accounts mentioned)');
    term.key('down');
    term.key('down');
    term.key('down');
    term.key('enter'); // private
    const summary = await term.until('Schedule it?');
    expect(summary).toContain('mastodon.visibility=private');
    term.key('enter');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)![1];
    const job = (await t.run(`schedule show ${jobId} --json`)).json<{ platform_options: Record<string, unknown> }>();
    expect(job.platform_options).toEqual({ mastodon: { visibility: 'private' } });
  });
});

describe('socialpub connect mastodon', () => {
  it('refuses a server that is not https before any request, naming --server', async () => {
    const r = await t.run('connect mastodon --server http://mastodon.social --no-browser');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--server: http://mastodon.social is not https; Mastodon servers are reached over https only');
    const list = (await t.run('connections list --json')).json<{ connections: Array<{ platform: string; mode: string }> }>().connections;
    expect(list.filter((c) => c.platform === 'mastodon').map((c) => c.mode)).toEqual(['sandbox']);
  });

  it('without a terminal, names the --server flag it needs (exit 2)', async () => {
    const r = await t.run('connect mastodon --no-browser');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--server (the Mastodon server, e.g. https://mastodon.social)');
  });
});
