import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonWithFiles } from '../packages/sdk/test/helpers/daemon-with-files';
import { PNG_BYTES, type FileServer } from '../packages/sdk/test/helpers/file-server';
import type { RealDaemon } from '../packages/sdk/test/helpers/real-daemon';
import { manageScheduled } from './manage-scheduled';
import { prepareThenPublish } from './prepare-then-publish';
import { publishNow } from './publish-now';
import { staggeredCampaign, tomorrowAtTen } from './staggered-campaign';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const hour = 3_600_000;

describe('the examples, against a daemon with sandbox connections', () => {
  let d: RealDaemon;
  let files: FileServer;
  let client: SocialPub;
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);

  beforeAll(async () => {
    // prepare-then-publish fetches from the loopback file server. The waiting helpers poll at
    // every turn of the event loop here (no time passes), so the classes they poll get room for those polls.
    ({ d, files, client } = await startDaemonWithFiles({
      connect: ['twitter', 'threads', 'instagram'],
      rateLimits: { scheduled: { limit: 100_000 }, media_status: { limit: 100_000 } },
    }));
  });
  afterAll(async () => {
    await d?.close();
    await files?.close();
  });

  it('publish-now publishes to Twitter and Threads through the sandbox and prints the post URLs', async () => {
    const post = await publishNow({ client, caption: 'Hello from the examples test', log });
    expect(post.status).toBe('published');
    expect(post.targets.map((t) => [t.platform, t.status])).toEqual([
      ['twitter', 'published'],
      ['threads', 'published'],
    ]);
    for (const t of post.targets) {
      expect(t.post_url).toMatch(/^https?:\/\//);
      expect(lines).toContain(`${t.platform}: ${t.post_url}`);
    }
  });

  it('prepare-then-publish prepares an image and publishes a tweet with the prepared copy', async () => {
    const { task, post } = await prepareThenPublish({ client, urls: [`${files.url}/photo.png`], log });
    expect(task.status).toBe('completed');
    expect(task.files[0]).toMatchObject({ type: 'image', size: PNG_BYTES.length });
    expect(post.status).toBe('published');
    expect(post.media_urls).toEqual([task.files[0]?.prepared_url]);
    expect(post.targets[0]?.post_url).toMatch(/^https?:\/\//);
  });

  it('staggered-campaign schedules the story at the base time, the feed an hour later and the tweet two hours later', async () => {
    const base = tomorrowAtTen();
    const job = await staggeredCampaign({ client, base, imageUrl: 'https://cdn.example.com/spring.jpg', log });
    expect(job.status).toBe('scheduled');
    const at = Object.fromEntries(job.targets.map((t) => [`${t.platform}.${t.type}`, Date.parse(t.scheduled_for) - Date.parse(base)]));
    expect(at).toEqual({ 'instagram.story': 0, 'instagram.feed': hour, 'twitter.tweet': 2 * hour });
    const { post } = await client.scheduled.get(job.job_id);
    expect(post.platform_captions.twitter).toMatch(/Spring collection/);
    expect(lines.some((l) => l.includes('instagram story'))).toBe(true);
  });

  it('manage-scheduled re-times, approves and cancels, and meets the 409 it expects', async () => {
    const result = await manageScheduled({ client, log });
    expect(result.listed).toEqual(expect.arrayContaining([result.cancelledJobId, result.approved.job_id]));
    expect(result.approved.status).toBe('scheduled');
    expect(Date.parse(result.retimed.scheduled_for ?? '') - Date.parse(result.retimed.created_at)).toBeGreaterThanOrEqual(25 * hour - 60_000);
    expect((await client.scheduled.get(result.cancelledJobId)).post.status).toBe('cancelled');
    expect(lines.some((l) => l.startsWith(`as expected, ${result.cancelledJobId} can no longer be moved`))).toBe(true);
  });

  it('runs as a script with the documented command, reading SOCIALPUB_BASE_URL and SOCIALPUB_API_KEY', async () => {
    const { stdout } = await run(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', 'examples/staggered-campaign.ts'], {
      cwd: root,
      env: { ...process.env, SOCIALPUB_BASE_URL: d.url, SOCIALPUB_API_KEY: d.apiKey },
    });
    const jobId = /^job (job_\S+) scheduled/m.exec(stdout)?.[1];
    expect(jobId).toBeDefined();
    const { post } = await client.scheduled.get(jobId ?? '');
    expect(post.targets).toHaveLength(3);
    expect(stdout.trim().split('\n').filter((l) => /^ {2}\S+Z {2}/.test(l))).toHaveLength(3);
  });
});
