import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealDaemon, type RealDaemon } from '../packages/sdk/test/helpers/real-daemon';
import { manageScheduled } from './manage-scheduled';
import { staggeredCampaign, tomorrowAtTen } from './staggered-campaign';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const hour = 3_600_000;

describe('the examples, against a daemon with sandbox connections', () => {
  let d: RealDaemon;
  let client: SocialPub;
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);

  beforeAll(async () => {
    d = await startRealDaemon({ connect: ['twitter', 'threads', 'instagram'] });
    client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey });
  });
  afterAll(async () => {
    await d?.close();
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
