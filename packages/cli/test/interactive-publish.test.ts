import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';
import { Terminal } from './terminal';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
const savedVisual = process.env.VISUAL;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter', 'instagram');
  // The caption prompt opens $VISUAL on a temp file; this "editor" writes the caption into it.
  const editor = join(t.root, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nprintf 'Launch day!\\n' > "$1"\n`);
  chmodSync(editor, 0o755);
  process.env.VISUAL = editor;
});
afterAll(async () => {
  if (savedVisual === undefined) delete process.env.VISUAL;
  else process.env.VISUAL = savedVisual;
  await t.stop();
});

describe('socialpub publish in a terminal', () => {
  it('asks for platforms, caption, types, time and offsets, confirms a summary, and creates that job', async () => {
    const term = new Terminal();
    const run = t.run(['publish', '--media', 'https://example.com/launch.jpg'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });

    let screen = await term.until('Publish to which platforms?');
    screen += await term.until('youtube');
    expect(screen).toContain('instagram (connected: sandbox)');
    expect(screen).toContain('twitter (connected: sandbox)');
    expect(screen).toContain('tiktok (not connected)');
    term.key('space'); // instagram
    term.key('down');
    term.key('down');
    term.key('space'); // twitter
    term.key('enter');

    await term.until('Content types for instagram?'); // the caption editor ran in between
    expect(await term.until('reels')).toContain('feed (default)');
    term.key('down');
    term.key('space'); // story, next to the preselected feed
    term.key('enter');

    await term.until('When?');
    await term.until('at a time…');
    term.key('down');
    term.key('enter');

    await term.until('Time (');
    const base = Date.now() + 2 * 3_600_000;
    term.type('+2h');
    term.key('enter');

    await term.until('Stagger the targets with offsets from that time?');
    term.type('y');
    term.key('enter');

    await term.until('Offset for instagram.feed');
    term.type('+1h');
    term.key('enter');
    await term.until('Offset for instagram.story');
    term.key('enter'); // empty: the base time
    await term.until('Offset for twitter.tweet');
    term.type('+30m');
    term.key('enter');

    screen = await term.until('Schedule it?');
    expect(screen).toContain('Caption:   Launch day!');
    expect(screen).toMatch(/instagram\.story {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    term.key('enter');

    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)?.[1];
    expect(jobId).toBeDefined();

    const post = (await t.run(`schedule show ${jobId} --json`)).json<{
      caption: string;
      platforms: string[];
      platform_types: Record<string, string[]>;
      media_urls: string[];
      type_schedule: Record<string, string>;
      scheduled_for: string;
      targets: { platform: string; type: string; scheduled_for: string }[];
    }>();
    expect(post.caption).toBe('Launch day!');
    expect(post.platforms).toEqual(['instagram', 'twitter']);
    expect(post.platform_types.instagram).toEqual(['feed', 'story']);
    expect(post.media_urls).toEqual(['https://example.com/launch.jpg']);
    expect(post.type_schedule).toEqual({ 'instagram.feed': '+1h', 'twitter.tweet': '+30m' });
    const scheduled = Date.parse(post.scheduled_for);
    expect(Math.abs(scheduled - base)).toBeLessThan(60_000);
    const at = Object.fromEntries(post.targets.map((x) => [`${x.platform}.${x.type}`, Date.parse(x.scheduled_for) - scheduled]));
    expect(at).toEqual({ 'instagram.feed': 3_600_000, 'instagram.story': 0, 'twitter.tweet': 1_800_000 });
  });

  it('creates nothing when the summary is declined (exit 130)', async () => {
    const before = (await t.run('schedule list --json')).json<{ posts: unknown[] }>().posts.length;
    const term = new Terminal();
    const run = t.run(['publish', 'not this one', '-p', 'twitter'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    await term.until('When?');
    await term.until('at a time…');
    term.key('enter'); // now
    await term.until('Publish now?');
    term.type('n');
    term.key('enter');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('nothing published');
    expect((await t.run('schedule list --json')).json<{ posts: unknown[] }>().posts.length).toBe(before);
  });
});
