import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';
import { Terminal } from './terminal';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('instagram', 'youtube', 'tiktok', 'bluesky');
});
afterAll(async () => {
  await t.stop();
});

interface Job {
  media_urls: string[];
  platform_types: Record<string, string[]>;
  platform_options: Record<string, Record<string, unknown>>;
}

/** Answers "When?" with a time two hours ahead (so nothing publishes during the test). */
async function inTwoHours(term: Terminal): Promise<void> {
  await term.until('When?');
  await term.until('at a time…');
  term.key('down');
  term.key('enter');
  await term.until('Time (');
  term.type('+2h');
  term.key('enter');
}

describe('socialpub publish in a terminal: media and platform options', () => {
  it('asks for media as soon as a chosen type needs it, before the time, and publishes with it', async () => {
    const term = new Terminal();
    const run = t.run(['publish', 'A story needs a picture', '-p', 'instagram'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    await term.until('Content types for instagram?');
    await term.until('reels');
    term.key('enter'); // feed, the default

    expect(await term.until('Media (a URL or a local file):')).toContain('Media is needed for instagram.feed (image or video).');
    term.key('enter'); // nothing yet: refused, asked again
    await term.until('give at least one URL or file');
    term.type('./no-such-file.jpg');
    term.key('enter');
    await term.until('is neither a URL');
    for (let i = 0; i < './no-such-file.jpg'.length; i++) term.key('backspace');
    term.type('https://example.com/launch.jpg');
    term.key('enter');
    await term.until('More media (empty: done):');
    term.key('enter');

    await inTwoHours(term);
    const summary = await term.until('Schedule it?');
    expect(summary).toContain('Media:     1 file(s)');
    term.key('enter');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)![1];
    const job = (await t.run(`schedule show ${jobId} --json`)).json<Job>();
    expect(job.media_urls).toEqual(['https://example.com/launch.jpg']);
  });

  it("asks YouTube's title and privacy and offers TikTok's privacy levels from the creator's info", async () => {
    const term = new Terminal();
    const run = t.run(['publish', 'Launch day\nThe whole story', '-p', 'youtube,tiktok', '--media', 'https://example.com/launch.mp4'], {
      interactive: true,
      stdin: term.stdin,
      onStderr: term.onStderr,
    });
    await term.until('Content types for youtube?');
    await term.until('shorts');
    term.key('enter'); // video, the default
    await term.until('Content types for tiktok?');
    await term.until('photo');
    term.key('enter'); // video, the default
    await inTwoHours(term);
    await term.until('Stagger the targets');
    term.type('n');
    term.key('enter');

    // The title offered is the caption's first line (what the daemon would take); it is changed here.
    expect(await term.until('YouTube title (at most 100 characters, no < or >):')).toContain('Launch day');
    for (let i = 0; i < 'Launch day'.length; i++) term.key('backspace');
    term.type('Launch <day>');
    term.key('enter');
    await term.until('title must not contain < or >');
    for (let i = 0; i < '<day>'.length; i++) term.key('backspace');
    term.type('day, the video');
    term.key('enter');

    await term.until('YouTube privacy?');
    await term.until('private');
    term.key('down');
    term.key('down');
    term.key('enter'); // unlisted

    // The sandbox creator's account is private: everyone is not offered.
    const offered = await term.until('only me (SELF_ONLY)');
    expect(offered).toContain('Who can see the TikTok video?');
    expect(offered).toContain('followers (FOLLOWER_OF_CREATOR)');
    expect(offered).not.toContain('PUBLIC_TO_EVERYONE');
    term.key('down');
    term.key('down');
    term.key('enter'); // SELF_ONLY

    const summary = await term.until('Schedule it?');
    expect(summary).toContain('Options:   youtube.title="Launch day, the video", youtube.privacy_status=unlisted, tiktok.privacy_level=SELF_ONLY');
    term.key('enter');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)![1];
    const job = (await t.run(`schedule show ${jobId} --json`)).json<Job>();
    expect(job.platform_options).toEqual({ youtube: { title: 'Launch day, the video', privacy_status: 'unlisted' }, tiktok: { privacy_level: 'SELF_ONLY' } });
  });

  it('asks nothing the flags already gave', async () => {
    const term = new Terminal();
    const run = t.run(['publish', 'Flags first', '-p', 'youtube', '--type', 'youtube=video', '--media', 'https://example.com/v.mp4', '--option', 'youtube.title=Given', '--option', 'youtube.privacy_status=private'], {
      interactive: true,
      stdin: term.stdin,
      onStderr: term.onStderr,
    });
    await inTwoHours(term);
    const summary = await term.until('Schedule it?');
    expect(summary).not.toContain('YouTube title');
    expect(summary).not.toContain('Media (a URL');
    expect(summary).toContain('Options:   youtube.title=Given, youtube.privacy_status=private');
    term.type('n');
    term.key('enter');
    expect((await run).code).toBe(130);
  });

  it("asks Bluesky's languages and content warning", async () => {
    const term = new Terminal();
    const run = t.run(['publish', 'Bonjour 🌍', '-p', 'bluesky'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    await inTwoHours(term);
    await term.until('Bluesky languages (e.g. en,fr; empty: none):');
    term.type('fr,english');
    term.key('enter');
    await term.until('a language is a BCP-47 tag');
    for (let i = 0; i < 'english'.length; i++) term.key('backspace');
    term.type('en');
    term.key('enter');
    await term.until('Bluesky content warning?');
    await term.until('graphic-media');
    term.key('down');
    term.key('down'); // nudity
    term.key('enter');
    const summary = await term.until('Schedule it?');
    expect(summary).toContain('bluesky.langs=fr,en');
    term.key('enter');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)![1];
    const job = (await t.run(`schedule show ${jobId} --json`)).json<Job>();
    expect(job.platform_options).toEqual({ bluesky: { langs: ['fr', 'en'], labels: ['nudity'] } });
  });
});
