import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sparkline, statsTable } from '../src/commands/stats';
import { startTestDaemon } from './daemon-harness';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter', 'bluesky', 'mastodon');
});
afterAll(async () => {
  await t.stop();
});

interface Answer {
  job_id: string;
  targets: { platform: string; metrics: Record<string, number>; platform_metrics: Record<string, number>; history: unknown[]; problem: unknown }[];
}

describe('socialpub stats', () => {
  it('reads the figures with --refresh --json, and shows the same figures as the API without --refresh', async () => {
    const pub = await t.run(['publish', 'how did it do', '-p', 'twitter,bluesky,mastodon', '--now', '--wait', '--json']);
    expect(pub.code, pub.stderr).toBe(0);
    const jobId = pub.json<{ job_id: string }>().job_id;

    const fresh = await t.run(`stats ${jobId} --refresh --json`);
    expect(fresh.code, fresh.stderr).toBe(0);
    const read = fresh.json<Answer>();
    expect(read.job_id).toBe(jobId);
    expect(read.targets.map((x) => [x.platform, x.problem, x.history.length]).sort()).toEqual([
      ['bluesky', null, 1],
      ['mastodon', null, 1],
      ['twitter', null, 1],
    ]);
    expect(Object.keys(read.targets.find((x) => x.platform === 'twitter')!.platform_metrics)).toContain('impression_count');

    const shown = await t.run(`stats ${jobId} --json`);
    expect(shown.json<Answer>()).toEqual(read);
    const api = await fetch(`${t.daemon.url}/api/agents/v1/analytics/posts?job_id=${jobId}`, { headers: { 'x-api-key': t.key.api_key } });
    const { success, ...body } = (await api.json()) as Answer & { success: boolean };
    expect(success).toBe(true);
    expect(body).toEqual(read);

    const human = await t.run(`stats ${jobId}`);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^target\s+impressions\s+likes\s+comments\s+shares\s+saves\s+clicks\s+read at\s+trend$/);
    const x = read.targets.find((r) => r.platform === 'twitter')!.metrics;
    expect(lines.find((l) => l.startsWith('twitter.tweet'))).toMatch(new RegExp(`^twitter\\.tweet\\s+${x.impressions}\\s+${x.likes}\\s+${x.comments}\\s+${x.shares}\\s+${x.saves}\\s+${x.clicks}\\s+\\S+Z\\s+impressions █$`));
    // Bluesky has no impressions: a dash, and its trend follows likes.
    expect(lines.find((l) => l.startsWith('bluesky.post'))).toMatch(/^bluesky\.post\s+—\s+\d+.*likes █$/);
  });

  it('refuses to refresh a job with nothing published, and shows why it has no figures', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const pub = await t.run(['publish', 'not yet', '-p', 'twitter', '--at', later, '--json']);
    expect(pub.code, pub.stderr).toBe(0);
    const jobId = pub.json<{ job_id: string }>().job_id;
    const r = await t.run(`stats ${jobId} --refresh --json`);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/nothing of job_\S+ is published/);
    const shown = await t.run(`stats ${jobId} --json`);
    expect(shown.json<Answer>().targets[0]!.problem).toEqual({ code: 'not_published', message: 'scheduled: no post to read figures of' });
  });
});

describe('the stats table', () => {
  it('draws each reading of the lead figure as a bar from lowest to highest', () => {
    expect(sparkline([1, 5, 10])).toBe('▁▄█');
    expect(sparkline([7, 7])).toBe('██');
    expect(sparkline([])).toBe('');
  });

  it('keeps only the columns some target has, and lists the problems under the table', () => {
    const lines = statsTable({
      success: true,
      job_id: 'job_1',
      targets: [
        {
          platform: 'mastodon', account: 'mastodon', type: 'status', status: 'published', post_id: '1', published_at: '2026-12-25T10:00:00.000Z', collected_at: '2026-12-26T10:00:00.000Z',
          metrics: { likes: 9, comments: 1, shares: 3 }, platform_metrics: {},
          history: [{ collected_at: 'a', metrics: { likes: 2 }, platform_metrics: {} }, { collected_at: 'b', metrics: { likes: 9 }, platform_metrics: {} }],
          next_collection_at: null, problem: { code: 'rate_limited', message: 'wait' },
        },
      ],
    });
    expect(lines).toEqual([
      'target           likes  comments  shares  read at                   trend',
      'mastodon.status      9         1       3  2026-12-26T10:00:00.000Z  likes ▁█',
      'mastodon.status: rate_limited: wait',
    ]);
  });
});
