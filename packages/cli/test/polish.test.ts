import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { firstPublish } from '../src/commands/connect';

/** What a new user trips over first (issue 16, deliverable 5). */
const t = useTestDaemon({ connect: ['twitter', 'threads', 'instagram'] });

const GROUPS = ['daemon', 'keys', 'connections', 'settings', 'sandbox', 'schedule', 'auth', 'config'];
type ErrorDoc = { success: false; error: { code: string; message: string; hint?: string; exit_code: number; details?: { path: string; flag?: string; message: string }[] } };

describe('group commands', () => {
  it('print one JSON document under --json when called without a subcommand (exit 2)', async () => {
    for (const group of GROUPS.filter((g) => g !== 'settings')) {
      const r = await t.run(`${group} --json`);
      expect(r.code, group).toBe(2);
      expect(r.stderr, group).toBe('');
      const doc = r.json<ErrorDoc>();
      expect(doc.success).toBe(false);
      expect(doc.error.code).toBe('usage');
      expect(doc.error.message).toMatch(new RegExp(`^\`socialpub ${group}\` needs a subcommand: `));
      expect(doc.error.hint).toBe(`see \`socialpub ${group} --help\``);
    }
    expect((await t.run('connections --json')).json<ErrorDoc>().error.message).toBe('`socialpub connections` needs a subcommand: list, remove, rename, default');
    // Without --json: the help on stderr, nothing on stdout, as before.
    const human = await t.run('connections');
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain('Usage: socialpub connections');
  });

  it('show examples in their --help', async () => {
    for (const group of GROUPS) {
      const r = await t.run(`${group} --help`);
      expect(r.code, group).toBe(0);
      expect(r.stdout, group).toMatch(new RegExp(`Examples:\\n {2}\\$ socialpub ${group}\\b`));
    }
  });
});

describe('settings', () => {
  it('reads the current values: bare, with get, by name, and as JSON', async () => {
    const off = await t.run('settings --json');
    expect(off.code).toBe(0);
    expect(off.json()).toEqual({ email: 'tester@example.com', user_id: expect.stringMatching(/.+/), approval_workflow: false, agent_approval: true, timezone: null });
    expect((await t.run('settings set approval-workflow on')).code).toBe(0);
    expect((await t.run('settings get --json')).json()).toMatchObject({ approval_workflow: true });
    const human = await t.run('settings');
    expect(human.stdout).toMatch(/user:\s+tester@example\.com\napproval-workflow:\s+on\nagent-approval:\s+on\ntimezone:\s+none \(UTC\)\n/);
    expect((await t.run('settings get approval-workflow')).stdout).toBe('on\n');
    expect((await t.run('settings set approval-workflow off')).code).toBe(0);
    expect((await t.run('settings get approval-workflow --user tester@example.com')).stdout).toBe('off\n');
    const unknown = await t.run('settings get dark-mode');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown setting "dark-mode" (known: approval-workflow, agent-approval, timezone)');
  });
});

describe('platform names', () => {
  it('take x for twitter and any case, in every flag that names a platform', async () => {
    const r = await t.run(['publish', 'hello x', '-p', 'X,Threads', '--caption-for', 'x=short', '--type', 'THREADS=post', '--at', '+2h', '--offset', 'X.tweet=+1h', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const job = r.json<{ job_id: string; platforms: string[] }>();
    expect(job.platforms).toEqual(['twitter', 'threads']);
    const post = (await t.run(`schedule show ${job.job_id} --json`)).json<{ platform_captions: Record<string, string>; type_schedule: Record<string, string> }>();
    expect(post.platform_captions).toEqual({ twitter: 'short' });
    expect(post.type_schedule).toEqual({ 'twitter.tweet': '+1h' });
    expect((await t.run('sandbox posts --platform Twitter --json')).code).toBe(0);
    const connected = await t.run('connect Facebook --sandbox --json');
    expect(connected.json<{ platform: string }>().platform).toBe('facebook');
    expect((await t.run('connections remove FACEBOOK')).code).toBe(0);
    const unknown = await t.run('publish x -p myspace --now');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown platform "myspace" (known: instagram, facebook, twitter, threads, tiktok, youtube, bluesky, mastodon, linkedin, pinterest; x for twitter)');
  });
});

describe('schedule show', () => {
  it('shows the per-platform captions that --json has', async () => {
    const job = (await t.run(['publish', 'the default', '-p', 'twitter,threads', '--caption-for', 'threads=for threads only', '--at', '+2h', '--json'])).json<{ job_id: string }>();
    const r = await t.run(`schedule show ${job.job_id}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\ncaption:\s+the default\ncaption \(threads\):\s+for threads only\nplatforms:/);
  });
});

describe('errors in the terms the user typed', () => {
  it('name --media and --at, not media_urls and scheduled_for', async () => {
    const media = await t.run('publish hi -p instagram --now');
    expect(media.code).toBe(2);
    expect(media.stderr).toContain('error: --media: Instagram feed takes at least 1 media items');
    expect(media.stderr).not.toContain('media_urls');
    const past = await t.run('publish hi -p twitter --at 2020-01-01T00:00:00Z --json');
    const err = past.json<ErrorDoc>().error;
    expect(err.message).toBe('--at: is more than 60 seconds in the past');
    // The daemon's field stays in details (machine-readable), with the flag beside it.
    expect(err.details?.[0]).toMatchObject({ path: 'scheduled_for', flag: '--at' });
    const caption = await t.run(['publish', 'x', '-p', 'twitter,instagram', '--caption-for', `twitter=${'y'.repeat(300)}`, '--now']);
    // The first problem is the message, the others detail lines: each names its flag.
    expect(caption.stderr).toMatch(/error: --caption-for twitter: twitter captions are at most 280 characters| {2}- --caption-for twitter: twitter captions are at most 280 characters/);
    expect(caption.stderr).toMatch(/error: --media: Instagram feed| {2}- --media: Instagram feed/);
    expect(caption.stderr).not.toMatch(/platform_captions|media_urls/);
    const offset = (await t.run('publish hi -p twitter --at +1h --offset tweet=2019-01-01T00:00:00Z --json')).json<ErrorDoc>();
    expect(offset.error.message).toMatch(/^--offset tweet: /);
  });

  it('say a malformed key is malformed where it came from, not in HTTP header terms', async () => {
    const flag = await t.run(['whoami', '--api-key', 'not a key']);
    expect(flag.code).toBe(3);
    expect(flag.stderr).toContain('error: the API key from --api-key is malformed: a key looks like sp_key_<id>_<secret>');
    expect(flag.stderr).not.toMatch(/header|X-API-Key|Authorization/);
    const env = await t.run('whoami --json', { env: { SOCIALPUB_API_KEY: 'sp_nope' } });
    expect(env.json<ErrorDoc>().error).toMatchObject({ code: 'unauthorized', exit_code: 3, message: 'the API key from SOCIALPUB_API_KEY is malformed: a key looks like sp_key_<id>_<secret>' });
  });

  it('name the flag a live connect needs when no terminal can ask', async () => {
    const r = await t.run('connect twitter --no-browser --json');
    expect(r.code).toBe(2);
    expect(r.json<ErrorDoc>().error.message).toBe(
      'missing --client-id (OAuth 2.0 in the browser) or --consumer-key, --consumer-secret, --access-token and --access-secret (OAuth 1.0a)',
    );
    const oauth1 = await t.run('connect twitter --consumer-key K --json');
    expect(oauth1.json<ErrorDoc>().error.message).toBe('missing --consumer-secret (the X app API key secret)');
  });
});

describe('examples that work as written', () => {
  it('suggest a first publish each platform accepts after connect', async () => {
    expect(firstPublish('twitter')).toBe('socialpub publish "hello" -p twitter --now --wait');
    expect(firstPublish('instagram')).toBe('socialpub publish "hello" -p instagram --media https://picsum.photos/id/10/1080/1350.jpg --now --wait');
    expect(firstPublish('tiktok')).toMatch(/^socialpub publish "hello" -p tiktok --media \.\/clip\.mp4 --now --wait/);
    const r = await t.run('connect instagram --sandbox');
    expect(r.stdout).toContain('try: socialpub publish "hello" -p instagram --media https://');
    // The suggestion, run as written (the URL form of --media), passes the daemon's checks.
    const check = await t.run(['publish', 'hello', '-p', 'instagram', '--media', 'https://picsum.photos/id/10/1080/1350.jpg', '--at', '+1h', '--json']);
    expect(check.code, check.stderr).toBe(0);
  });

  it('publish --help shows no Instagram example with a local file (refused without --public-url)', async () => {
    const help = (await t.run('publish --help')).stdout;
    const examples = help.slice(help.indexOf('Examples:')).split('\n').filter((l) => l.includes('$ socialpub publish'));
    expect(examples.length).toBeGreaterThan(2);
    for (const line of examples) if (/--media \.\//.test(line)) expect(line).not.toMatch(/-p \S*(instagram|threads)/);
  });

  it("the README tour's prepare links are a real direct link or a placeholder that says so, never a made-up share link", async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const prepares = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n')).filter((l) => l.startsWith('socialpub prepare '));
    expect(prepares.length).toBeGreaterThan(0);
    for (const line of prepares) {
      const link = /^socialpub prepare ("[^"]*"|\S+)/.exec(line)?.[1]?.replace(/^"|"$/g, '') ?? '';
      if (link.startsWith('<')) {
        // A placeholder: it cannot be mistaken for a link that works.
        expect(link, line).toMatch(/^<your [^>]+>$/);
      } else {
        // A link: the one the CLI's own hints use, which the daemon's checks accept as written.
        expect(link, line).toBe('https://picsum.photos/id/10/1080/1350.jpg');
        const r = await t.run(['publish', 'tour', '-p', 'instagram', '--media', link, '--at', '+1h', '--json']);
        expect(r.code, r.stderr).toBe(0);
      }
    }
  });
});
