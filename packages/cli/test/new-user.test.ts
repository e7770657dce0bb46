import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageInFlags } from '../src/api-fields';
import { useTestDaemon } from './daemon-harness';
import { JPEG } from './media-samples';

/** The CLI as a new user meets it (issue 28, item 9): what they typed, where to allow things, one zone, one URL. */
const t = useTestDaemon({ connect: ['twitter', 'instagram'] });

describe('errors name what the user typed', () => {
  it('--tz, not timezone, for a zone nobody knows', async () => {
    const r = await t.run('publish hello -p twitter --at 2030-01-01T10:00 --tz Mars/Olympus');
    expect(r.code).toBe(2);
    // The one problem is the message: not said twice.
    expect(r.stderr).toBe('error: --tz is not a known IANA time zone name (e.g. Europe/Berlin, America/New_York, UTC)\n');
    expect(r.stderr).not.toContain('timezone');
    const json = await t.run('publish hello -p twitter --at 2030-01-01T10:00 --tz Mars/Olympus --json');
    expect(json.json<{ error: { details: { path: string; flag: string }[] } }>().error.details[0]).toMatchObject({ path: 'timezone', flag: '--tz' });
    // Where the user typed the word `timezone`, it stays the word.
    const setting = await t.run('settings set timezone Mars/Olympus');
    expect(setting.stderr).not.toContain('--tz');
  });

  it('--media #N, not media_urls[N], in the message and its details', async () => {
    const file = join(t.root, 'pic.jpg');
    writeFileSync(file, JPEG);
    const r = await t.run(['publish', 'hello', '-p', 'instagram', '--media', 'https://example.com/a.jpg', '--media', file, '--now']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --media #2: Instagram downloads media from a public URL');
    expect(r.stderr).not.toContain('media_urls');
    // Lists named inside a message's text too, in both forms the daemon writes.
    expect(messageInFlags('Instagram downloads media from a public URL, and media_urls[0] has none', [])).toBe('Instagram downloads media from a public URL, and --media #1 has none');
    expect(messageInFlags('media_urls.2 and thread[1] are too large', [])).toBe('--media #3 and --thread #2 are too large');
    expect(messageInFlags('media_urls[0] is refused', [], new Set(['--url']))).toBe('media_urls[0] is refused');
  });
});

describe('refusals say where to allow what they refuse', () => {
  it('media from a private address: the config key and the environment variable', async () => {
    const r = await t.run('prepare http://127.0.0.1:9/x.jpg --wait');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'refused to fetch from 127.0.0.1: it resolves to a loopback address; to fetch media from private and loopback addresses (a network you trust), set "media_allow_private": true in config.json in the daemon\'s data dir, or SOCIALPUB_MEDIA_ALLOW_PRIVATE=1, and restart the daemon',
    );
  });

  it('a webhook to a loopback receiver, over http and over https', async () => {
    const http = await t.run('webhooks add http://127.0.0.1:9/hook');
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('the URL must use https; plain http goes only to private and loopback receivers, once they are allowed: to deliver to private and loopback receivers');
    expect(http.stderr).toContain('"webhook_allow_private": true in config.json in the daemon\'s data dir, or SOCIALPUB_WEBHOOK_ALLOW_PRIVATE=1');
    const https = await t.run('webhooks add https://127.0.0.1:9/hook');
    expect(https.code).toBe(2);
    expect(https.stderr).toContain('refused to deliver to 127.0.0.1: it resolves to a loopback address; to deliver to private and loopback receivers');
    expect(https.stderr).not.toContain('media_allow_private');
  });
});

describe('what publish and schedule show print', () => {
  it('--now: the targets are queued now, not "scheduled"', async () => {
    const r = await t.run('publish "hello now" -p twitter --now');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^✔ Publishing: job_\w+$/);
    expect(lines.slice(1, 3)).toEqual(['PLATFORM  TYPE   WHEN  STATUS  RESULT', 'twitter   tweet  now   queued']);
    expect(r.stdout).not.toContain('scheduled');
  });

  it('--wait in a terminal shows each post URL once', async () => {
    const r = await t.run('publish "hello wait" -p twitter --now --wait', { stdoutIsTTY: true });
    expect(r.code, r.stderr).toBe(0);
    const url = /https:\/\/x\.com\/\S+\/status\/\d+/.exec(r.stdout)?.[0] as string;
    expect(r.stdout.trim()).toBe(url);
    expect((r.stdout + r.stderr).split(url).length - 1).toBe(1);
    expect(r.stderr).toContain('✔ twitter.tweet: published\n');
    // Piped, stdout (the URLs) and stderr (the progress) go different ways: each keeps it.
    const piped = await t.run('publish "hello piped" -p twitter --now --wait');
    const pipedUrl = piped.stdout.trim();
    expect(piped.stderr).toContain(`✔ twitter.tweet: published ${pipedUrl}`);
  });

  it('schedule show gives every time in the post\'s zone, with no UTC beside it', async () => {
    const r = await t.run('publish later -p twitter --at 2030-01-01T10:00 --tz America/New_York --json');
    const id = r.json<{ job_id: string }>().job_id;
    const show = await t.run(`schedule show ${id}`);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toContain('UTC');
    expect(show.stdout).toMatch(/^scheduled for: 2030-01-01 10:00 America\/New_York$/m);
    expect(show.stdout).toMatch(/^created: {7}\d{4}-\d\d-\d\d \d\d:\d\d America\/New_York$/m);

    const now = await t.run('publish "now in Paris" -p twitter --now --tz Europe/Paris --json');
    const followed = await t.run(`schedule show ${now.json<{ job_id: string }>().job_id} --follow`);
    expect(followed.code, followed.stderr).toBe(0);
    const events = followed.stdout.split('\n').filter((l) => /\bevt_|target\./.test(l));
    expect(events.length).toBeGreaterThan(0);
    for (const line of events) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d Europe\/Paris /);
    expect(followed.stdout).not.toContain('UTC');
  });
});
