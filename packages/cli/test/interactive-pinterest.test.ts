import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';
import { Terminal } from './terminal';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('pinterest');
});
afterAll(async () => {
  await t.stop();
});

interface Job {
  platform_types: Record<string, string[]>;
  platform_options: Record<string, Record<string, unknown>>;
}

async function inTwoHours(term: Terminal): Promise<void> {
  await term.until('When?');
  await term.until('at a time…');
  term.key('down');
  term.key('enter');
  await term.until('Time (');
  term.type('+2h');
  term.key('enter');
}

describe('socialpub publish in a terminal: a Pinterest video pin', () => {
  it.each([
    ['3', { cover_key_frame_sec: 3 }],
    ['https://example.com/cover.jpg', { cover_image_url: 'https://example.com/cover.jpg' }],
  ])('asks for the cover (%s) and schedules the pin with it', async (answer, expected) => {
    const term = new Terminal();
    const run = t.run(['publish', 'How we dye linen', '-p', 'pinterest', '--type', 'pinterest=video_pin', '--media', 'https://example.com/clip.mp4'], { interactive: true, stdin: term.stdin, onStderr: term.onStderr });
    await inTwoHours(term);
    await term.until('Pinterest video pin cover');
    // Not a URL nor seconds: refused, asked again.
    term.type('soon');
    term.key('enter');
    await term.until('an http(s) image URL, or a whole number of seconds');
    for (let i = 0; i < 'soon'.length; i++) term.key('backspace');
    term.type(answer);
    term.key('enter');
    await term.until('Schedule it?');
    term.key('enter');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const jobId = /Scheduled: (job_[0-9a-z]+)/.exec(r.stdout)![1];
    const job = (await t.run(`schedule show ${jobId} --json`)).json<Job>();
    expect(job.platform_types).toEqual({ pinterest: ['video_pin'] });
    expect(job.platform_options).toEqual({ pinterest: expected });
  });
});
