import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { daysCsv, parseSince, readingsCsv, sparkline, statsTable, summaryLines } from '../src/commands/stats';
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
  targets: { platform: string; collected_at: string | null; metrics: Record<string, number>; platform_metrics: Record<string, number>; history: unknown[]; problem: unknown }[];
}

describe('socialpub stats', () => {
  it('reads the figures with --refresh --json, and shows the same figures as the API without --refresh, in the post zone for people', async () => {
    // The post's zone is pinned, so the table's times are Berlin wall times whatever the machine's zone.
    const pub = await t.run(['publish', 'how did it do', '-p', 'twitter,bluesky,mastodon', '--now', '--tz', 'Europe/Berlin', '--wait', '--json']);
    expect(pub.code, pub.stderr).toBe(0);
    const jobId = pub.json<{ job_id: string }>().job_id;

    // Publishing goes first: right after --wait the publisher may still hold the connection (publishing_first); ask again.
    const read = await vi.waitFor(
      async () => {
        const fresh = await t.run(`stats ${jobId} --refresh --json`);
        expect(fresh.code, fresh.stderr).toBe(0);
        const answer = fresh.json<Answer>();
        expect(answer.targets.map((x) => x.problem)).toEqual([null, null, null]);
        return answer;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(read.job_id).toBe(jobId);
    expect(read.targets.map((x) => [x.platform, x.problem, x.history.length >= 1]).sort()).toEqual([
      ['bluesky', null, true],
      ['mastodon', null, true],
      ['twitter', null, true],
    ]);
    expect(Object.keys(read.targets.find((x) => x.platform === 'twitter')!.platform_metrics)).toContain('impression_count');

    const shown = await t.run(`stats ${jobId} --json`);
    expect(shown.json<Answer>()).toEqual(read);
    const api = await fetch(`${t.daemon.url}/api/agents/v1/analytics/posts?job_id=${jobId}`, { headers: { 'x-api-key': t.key.api_key } });
    const { success, ...body } = (await api.json()) as Answer & { success: boolean };
    expect(success).toBe(true);
    expect(body).toEqual(read);

    const csv = await t.run(`stats ${jobId} --csv`);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...csvRows] = csv.stdout.trimEnd().split('\n');
    expect(head).toBe('job_id,platform,account,type,post_id,collected_at,impressions,views,likes,comments,shares,saves,clicks,platform_metrics');
    expect(csvRows.length).toBe(read.targets.reduce((n, x) => n + x.history.length, 0));
    const xRow = csvRows.find((r) => r.startsWith(`${jobId},twitter,`))!.split(',');
    expect(Number(xRow[6])).toBe(read.targets.find((x) => x.platform === 'twitter')!.metrics.impressions);

    const human = await t.run(`stats ${jobId}`);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TARGET\s+IMPRESSIONS\s+LIKES\s+COMMENTS\s+SHARES\s+SAVES\s+CLICKS\s+READ AT\s+TREND$/);
    const xTarget = read.targets.find((r) => r.platform === 'twitter')!;
    const x = xTarget.metrics;
    // The reading's instant as a Berlin wall time to the minute, as `schedule show` prints times.
    const berlin = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(xTarget.collected_at!));
    expect(lines.find((l) => l.startsWith('twitter.tweet'))).toMatch(new RegExp(`^twitter\\.tweet\\s+${x.impressions}\\s+${x.likes}\\s+${x.comments}\\s+${x.shares}\\s+${x.saves}\\s+${x.clicks}\\s+${berlin} Europe/Berlin\\s+impressions █$`));
    // Bluesky has no impressions: a dash, and its trend follows likes.
    expect(lines.find((l) => l.startsWith('bluesky.post'))).toMatch(/^bluesky\.post\s+—\s+\d+.*likes █$/);
  });

  it('refuses to refresh a job with nothing published, and shows why it has no figures', async () => {
    // Far ahead of any clock this runs on: nothing is published for it.
    const later = '2099-06-01T09:00:00Z';
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

describe('socialpub stats (the summary)', () => {
  it('adds up the posts of the window with --json as the API does, and prints a table, the top posts and the best times', async () => {
    const pub = await t.run(['publish', 'for the summary', '-p', 'twitter,mastodon', '--now', '--wait', '--json']);
    expect(pub.code, pub.stderr).toBe(0);
    const jobId = pub.json<{ job_id: string }>().job_id;
    await vi.waitFor(async () => expect((await t.run(`stats ${jobId} --refresh --json`)).json<Answer>().targets.every((x) => x.problem === null)).toBe(true), { timeout: 10_000, interval: 100 });

    const r = await t.run('stats --since 7d --platform twitter --json');
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<{ platform: string; totals: { posts: number; engagement: number }; top_posts: { job_id: string; platform: string }[]; by_platform: { platform: string }[] }>();
    expect(s.platform).toBe('twitter');
    expect(s.by_platform.map((p) => p.platform)).toEqual(['twitter']);
    expect(s.top_posts.map((p) => p.job_id)).toContain(jobId);
    const all = (await t.run('stats --json')).json<{ by_platform: { platform: string; posts: number }[] }>();
    // Every platform with posts in the window (this file's daemon also has the first test's), in name order.
    const names = all.by_platform.map((p) => p.platform);
    expect(names).toEqual(expect.arrayContaining(['mastodon', 'twitter']));
    expect(names).toEqual([...names].sort());

    const human = await t.run('stats --since 7d');
    expect(human.code, human.stderr).toBe(0);
    // The API's `posts` counts targets with a reading (the first test's job alone is three), `jobs` the posts, and the line gives both; the window in UTC (no timezone setting).
    const totals = (await t.run('stats --since 7d --json')).json<{ totals: { posts: number; jobs: number } }>().totals;
    expect(totals.jobs).toBeLessThan(totals.posts);
    expect(human.stdout).toMatch(new RegExp(`^${totals.jobs} posts \\(${totals.posts} targets\\) with figures, published \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC – \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: engagement \\d+\\n`));
    expect(human.stdout).toMatch(/^PLATFORM\s+POSTS\s+TARGETS\s+ENGAGEMENT\s+IMPRESSIONS/m);
    expect(human.stdout).toContain(`top: ${jobId}`);

    const bad = await t.run('stats --since 3 --json');
    expect(bad.code).toBe(2);
    expect(bad.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'usage', message: '--since "3": a stretch back from now like 24h, 7d or 2w (at most 400 days)' });
    expect((await t.run(`stats ${jobId} --since 7d`)).code).toBe(2);
  });
});

describe('the stats table', () => {
  it('draws each reading of the lead figure as a bar from lowest to highest', () => {
    expect(sparkline([1, 5, 10])).toBe('▁▄█');
    expect(sparkline([7, 7])).toBe('██');
    expect(sparkline([])).toBe('');
  });

  it('keeps only the columns some target has, shows the reading time in the post zone, and lists the problems under the table', () => {
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
        {
          platform: 'bluesky', account: 'bluesky', type: 'post', status: 'published', post_id: '2', published_at: '2026-12-25T10:00:00.000Z', collected_at: null,
          metrics: {}, platform_metrics: {}, history: [], next_collection_at: '2026-12-25T11:00:00.000Z', problem: null,
        },
      ],
    }, 'Europe/Berlin');
    expect(lines).toEqual([
      'TARGET           LIKES  COMMENTS  SHARES  READ AT                         TREND',
      'mastodon.status      9         1       3  2026-12-26 11:00 Europe/Berlin  likes ▁█',
      'bluesky.post         —         —       —  not read yet',
      'mastodon.status: rate_limited: wait',
    ]);
    // Without a zone (a post without one): UTC, as `schedule show` prints it.
    expect(statsTable({ success: true, job_id: 'job_2', targets: [{ platform: 'twitter', account: 'twitter', type: 'tweet', status: 'published', post_id: '3', published_at: null, collected_at: '2026-12-26T10:00:30.000Z', metrics: { impressions: 4 }, platform_metrics: {}, history: [], next_collection_at: null, problem: null }] })[1]).toBe(
      'twitter.tweet            4  2026-12-26 10:00 UTC  impressions',
    );
  });

  it('reads --since as hours, days or weeks', () => {
    expect(parseSince('24h')).toBe(86_400_000);
    expect(parseSince('2w')).toBe(14 * 86_400_000);
    expect(() => parseSince('0d')).toThrow(/--since "0d"/);
    expect(() => parseSince('401d')).toThrow(/at most 400 days/);
  });

  it('counts posts and targets, gives the window in the summary zone, and suggests the best times as queue slots', () => {
    const lines = summaryLines({
      success: true, from: '2026-12-01T00:00:00.000Z', to: '2026-12-08T00:00:00.000Z', platform: null, zone: 'Europe/Berlin',
      totals: { posts: 3, jobs: 2, engagement: 30, metrics: { likes: 20, comments: 10 } },
      by_platform: [{ platform: 'mastodon', posts: 3, jobs: 2, engagement: 30, metrics: { likes: 20, comments: 10 } }],
      by_day: [{ date: '2026-12-01', posts: 1, jobs: 1, engagement: 5, metrics: {} }, { date: '2026-12-02', posts: 2, jobs: 1, engagement: 25, metrics: {} }],
      top_posts: [{ job_id: 'job_1', platform: 'mastodon', account: 'mastodon', type: 'status', post_id: '1', published_at: '2026-12-02T08:00:00.000Z', engagement: 20, metrics: {} }],
      by_weekday_hour: [{ weekday: 'wed', hour: 9, posts: 2, engagement: 25, engagement_per_post: 12.5 }],
      suggested_slots: ['wed@09:00'],
    });
    expect(lines).toEqual([
      '2 posts (3 targets) with figures, published 2026-12-01 01:00 Europe/Berlin – 2026-12-08 01:00 Europe/Berlin: engagement 30',
      'PLATFORM  POSTS  TARGETS  ENGAGEMENT  LIKES  COMMENTS',
      'mastodon      2        3          30     20        10',
      'engagement by day ▁█ (2026-12-01 – 2026-12-02)',
      'top: job_1  mastodon.status  engagement 20',
      'best times (Europe/Berlin): wed@09:00  (socialpub queue set wed@09:00)',
    ]);
  });

  it('writes CSV with a quoted field where it holds a comma or a quote', () => {
    const lines = readingsCsv({
      success: true,
      job_id: 'job_1',
      targets: [
        {
          platform: 'facebook', account: 'facebook', type: 'feed', status: 'published', post_id: '1_2', published_at: null, collected_at: 'b',
          metrics: { likes: 2 }, platform_metrics: {}, history: [{ collected_at: '2026-12-25T10:00:00.000Z', metrics: { likes: 2, views: 5 }, platform_metrics: { 'post_reactions_by_type_total.like': 2 } }],
          next_collection_at: null, problem: null,
        },
      ],
    });
    expect(lines).toEqual([
      'job_id,platform,account,type,post_id,collected_at,impressions,views,likes,comments,shares,saves,clicks,platform_metrics',
      'job_1,facebook,facebook,feed,1_2,2026-12-25T10:00:00.000Z,,5,2,,,,,"{""post_reactions_by_type_total.like"":2}"',
    ]);
    expect(daysCsv({ success: true, from: 'a', to: 'b', platform: null, zone: 'UTC', totals: { posts: 0, jobs: 0, engagement: 0, metrics: {} }, by_platform: [], by_day: [{ date: '2026-12-01', posts: 1, jobs: 1, engagement: 3, metrics: { likes: 3 } }], top_posts: [], by_weekday_hour: [], suggested_slots: [] })).toEqual([
      'date,posts,engagement,impressions,views,likes,comments,shares,saves,clicks',
      '2026-12-01,1,3,,,3,,,,',
    ]);
  });
});
