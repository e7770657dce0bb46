import { readFileSync } from 'node:fs';
import * as sdk from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealDaemon, type RealDaemon } from './helpers/real-daemon';

/**
 * The ```ts blocks of docs/sdk.md, run as written against a real daemon with sandbox
 * connections, so an example cannot break silently. A block is a fragment: the names it
 * uses without defining (client, jobId, taskId, signal) are given real values of their
 * kind, its imports of @socialpub/sdk are the SDK itself, and console.log is recorded. A
 * block the suite cannot run is listed with the reason; a new block is neither until
 * someone decides, and fails.
 */
const doc = readFileSync(new URL('../../../docs/sdk.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const firstLine = (block: string) => (block.split('\n')[0] ?? '').trim();

const NOT_RUN: Record<string, string> = {
  "const task = await client.media.upload('./clip.mp4');                 // a path: streamed from disk, named clip.mp4":
    'upload.test.ts runs it as written, with the files it names',
  "client.content.publish({ captoin: 'x', platforms: ['twitter'], publish_now: true });": 'shows compile errors on purpose; types.test.ts checks them',
  'await client.content.publish({': 'shows the platform_options types and its media link is made up; types.test.ts compiles calls like it',
  '// An X poll (a post with a poll takes no media).':
    "its YouTube half's video, thumbnail and playlist are made up; daemon test/http/twitter-options and youtube-options send the same requests",
};

/** The block as the body of an async function: imports become reads of the SDK, `]!.` (TypeScript's non-null) plain JavaScript. */
function asFunction(block: string, names: string[]): (...values: unknown[]) => Promise<void> {
  const body = block.replace(/^import \{([^}]*)\} from '@socialpub\/sdk';$/gm, 'const {$1} = sdk;').replace(/\]!\./g, '].');
  return new Function('sdk', 'console', ...names, `return (async () => {\n${body}\n})();`) as (...values: unknown[]) => Promise<void>;
}

let d: RealDaemon;
let client: sdk.SocialPub;
beforeAll(async () => {
  d = await startRealDaemon({ connect: ['twitter', 'threads'] });
  client = new sdk.SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
});
afterAll(async () => {
  await d.close();
});

describe('the examples of docs/sdk.md', () => {
  it('are each run below or set aside with a reason', () => {
    expect(blocks.length).toBeGreaterThan(5);
    const run = [
      'import { SocialPub }',
      'import { ConflictError',
      'const page = await client.scheduled.list(',
      'const task = await client.media.waitUntilReady(',
      'for await (const event of client.events.stream(',
      'const { job_id } = await client.content.publish({',
    ];
    for (const b of blocks) expect(firstLine(b) in NOT_RUN || run.some((start) => firstLine(b).startsWith(start)), firstLine(b)).toBe(true);
  });

  const block = (start: string) => {
    const found = blocks.find((b) => firstLine(b).startsWith(start));
    if (!found) throw new Error(`docs/sdk.md has no block starting ${start}`);
    return found;
  };
  const recorder = () => {
    const logged: unknown[][] = [];
    return { logged, console: { log: (...a: unknown[]) => logged.push(a) } };
  };

  it('the opening example publishes, waits and prints the post URL (client from the environment)', async () => {
    const saved = { url: process.env.SOCIALPUB_BASE_URL, key: process.env.SOCIALPUB_API_KEY };
    process.env.SOCIALPUB_BASE_URL = d.url;
    process.env.SOCIALPUB_API_KEY = d.apiKey;
    try {
      const r = recorder();
      await asFunction(block('import { SocialPub }'), [])(sdk, r.console);
      expect(r.logged).toHaveLength(1);
      expect(r.logged[0]?.[0]).toEqual([expect.stringMatching(/^https?:\/\//)]);
    } finally {
      for (const [name, value] of [['SOCIALPUB_BASE_URL', saved.url], ['SOCIALPUB_API_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('the thread example publishes a reply chain with a first comment on twitter and threads and prints each part and the comment', async () => {
    const r = recorder();
    await asFunction(block('const { job_id } = await client.content.publish({'), ['client'])(sdk, r.console, client);
    expect(r.logged.map((l) => l[0]).sort()).toEqual(['threads', 'twitter']);
    for (const [, urls, comment] of r.logged) {
      expect(urls).toEqual([expect.stringMatching(/^https:\/\//), expect.stringMatching(/^https:\/\//), expect.stringMatching(/^https:\/\//)]);
      expect(comment).toMatchObject({ id: expect.stringMatching(/\S/) });
    }
  });

  it('the error example tells a job that cannot be cancelled any more', async () => {
    const job = await client.content.publish({ caption: 'cancel me late', platforms: ['twitter'], publish_now: true });
    await client.scheduled.waitUntilDone(job.job_id);
    const r = recorder();
    await asFunction(block('import { ConflictError'), ['client', 'jobId'])(sdk, r.console, client, job.job_id);
    expect(r.logged).toEqual([['already published or in flight']]);
  });

  it('the pagination example walks pages of scheduled posts', async () => {
    const at = new Date(Date.now() + 48 * 3_600_000).toISOString();
    for (let i = 0; i < 3; i++) await client.content.publish({ caption: `page ${i}`, platforms: ['threads'], scheduled_for: at });
    const r = recorder();
    await asFunction(block('const page = await client.scheduled.list('), ['client'])(sdk, r.console, client);
    const page = await client.scheduled.list({ status: 'scheduled', limit: 50 });
    expect(page.posts.length).toBeGreaterThanOrEqual(3);
  });

  it('the waiting example waits for a media task and a job', async () => {
    const task = await client.media.upload(Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00' + '\x00'.repeat(20) + ';', 'latin1'), { filename: 'dot.gif' });
    const job = await client.content.publish({ caption: 'wait for me', platforms: ['twitter'], publish_now: true });
    const r = recorder();
    await asFunction(block('const task = await client.media.waitUntilReady('), ['client', 'taskId', 'jobId', 'signal'])(sdk, r.console, client, task.task_id, job.job_id, new AbortController().signal);
    expect(r.logged).toEqual([['completed']]);
    expect((await client.scheduled.get(job.job_id)).post.status).toBe('published');
  });

  it('the events example prints events as they happen until its signal ends it', async () => {
    const controller = new AbortController();
    const logged: unknown[][] = [];
    // Ends the stream after the first event, as a reader would.
    const console = { log: (...a: unknown[]) => (logged.push(a), controller.abort()) };
    const running = asFunction(block('for await (const event of client.events.stream('), ['client', 'signal'])(sdk, console, client, controller.signal);
    await client.content.publish({ caption: 'an event', platforms: ['twitter'], publish_now: true });
    await running;
    // The first event of the types asked for (the stream starts with the events kept so far).
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toMatch(/\S/);
    expect(String(logged[0]?.[1])).toMatch(/^(target\.|post\.finished)/);
    expect(Object.keys(logged[0]?.[2] as object).length).toBeGreaterThan(0);
  });
});
