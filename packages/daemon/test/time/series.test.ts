import { describe, expect, it } from 'vitest';
import { materializeSeries, startSeriesMaterializer } from '../../src/jobs/recurrence';
import { ManualClock } from '../../src/util/clock';
import { silentLogger } from '../../src/util/logger';
import { API, errorOf, harness } from '../http/harness';

type Body = Record<string, unknown>;
type Series = { series_id: string; status: string; total: number; created: number; next_occurrences: { occurrence: number; scheduled_for: string; scheduled_local: string; job_id: string | null; status: string }[] };
const DAY = 86_400_000;

function setup(start = Date.UTC(2026, 2, 1, 12)) {
  const h = harness({ clock: new ManualClock(start) });
  h.connect(['twitter', 'threads']);
  return h;
}
type H = ReturnType<typeof setup>;
const publish = async (h: H, extra: Body) => {
  const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'weekly tip', platforms: ['threads'], ...extra } });
  return { status: res.status, body: (await res.json()) as Body };
};
const seriesOf = async (h: H, id: string) => ((await (await h.call('GET', `${API}/content/series?series_id=${id}`)).json()) as { series: Series }).series;
const count = (h: H, table: string) => (h.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const seriesJobs = (h: H, id: string) =>
  h.db
    .prepare('SELECT j.id, j.scheduled_for AS at, jt.occurrence, jt.scheduled_local AS local FROM job_times jt JOIN jobs j ON j.id = jt.job_id WHERE jt.series_id = ? ORDER BY jt.occurrence')
    .all(id) as { id: string; at: number; occurrence: number; local: string }[];

describe('recurring posts', () => {
  it('creates the occurrences within 30 days at once, one job each, at the same wall time across DST', async () => {
    const h = setup();
    const r = await publish(h, { scheduled_for: '2026-03-02T09:00:00', timezone: 'Europe/Berlin', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO', count: 10 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ scheduled_for: '2026-03-02T08:00:00.000Z', scheduled_local: '2026-03-02T09:00:00', timezone: 'Europe/Berlin', warnings: [] });
    const sid = r.body.series_id as string;
    expect(sid).toMatch(/^ser_/);
    const jobs = seriesJobs(h, sid);
    expect(jobs.map((j) => new Date(j.at).toISOString())).toEqual([
      '2026-03-02T08:00:00.000Z',
      '2026-03-09T08:00:00.000Z',
      '2026-03-16T08:00:00.000Z',
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z', // summer time: still 09:00 on the wall
    ]);
    expect(jobs.every((j) => j.local.endsWith('T09:00:00'))).toBe(true);
    expect(jobs[0]?.id).toBe(r.body.job_id);
    const post = ((await (await h.call('GET', `${API}/content/scheduled?job_id=${jobs[4]?.id}`)).json()) as { post: Body }).post;
    expect(post).toMatchObject({ series_id: sid, occurrence: 5, timezone: 'Europe/Berlin', scheduled_local: '2026-03-30T09:00:00' });

    const s = await seriesOf(h, sid);
    expect(s).toMatchObject({ status: 'active', total: 10, created: 5 });
    expect(s.next_occurrences.map((o) => [o.occurrence, o.scheduled_local, o.job_id, o.status])).toEqual([
      [1, '2026-03-02T09:00:00', jobs[0]?.id, 'scheduled'],
      [2, '2026-03-09T09:00:00', jobs[1]?.id, 'scheduled'],
      [3, '2026-03-16T09:00:00', jobs[2]?.id, 'scheduled'],
      [4, '2026-03-23T09:00:00', jobs[3]?.id, 'scheduled'],
      [5, '2026-03-30T09:00:00', jobs[4]?.id, 'scheduled'],
    ]);
  });

  it('lets the daemon create later occurrences as the injected clock moves, and finishes the series', async () => {
    const h = setup();
    const r = await publish(h, { scheduled_for: '2026-03-02T09:00:00', timezone: 'America/New_York', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO', count: 8 } });
    const sid = r.body.series_id as string;
    expect(seriesJobs(h, sid)).toHaveLength(5);
    const told: string[][] = [];
    const m = startSeriesMaterializer({ store: h.store, clock: h.clock, log: silentLogger, targetsChanged: (ids) => told.push(ids) });
    await h.clock.advance(7 * DAY);
    expect(seriesJobs(h, sid)).toHaveLength(6);
    expect(told.flat()).toHaveLength(1);
    await h.clock.advance(21 * DAY);
    const jobs = seriesJobs(h, sid);
    expect(jobs.map((j) => j.local)).toEqual(['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30', '2026-04-06', '2026-04-13', '2026-04-20'].map((d) => `${d}T09:00:00`));
    expect(new Date(jobs[0]!.at).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(new Date(jobs[7]!.at).toISOString()).toBe('2026-04-20T13:00:00.000Z');
    expect((await seriesOf(h, sid)).status).toBe('finished');
    await m.stop();
  });

  it('later occurrences of a series made through MCP record source mcp, held for approval like the first', async () => {
    const h = setup();
    h.store.users.setAgentApproval(h.user.id, true);
    const res = await h.call('POST', `${API}/content/publish`, {
      headers: { 'X-SocialPub-Source': 'mcp' },
      body: { caption: 'weekly tip', platforms: ['threads'], scheduled_for: '2026-03-02T09:00:00Z', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO', count: 8 } },
    });
    expect(res.status).toBe(200);
    const sid = ((await res.json()) as Body).series_id as string;
    await h.clock.advance(28 * DAY);
    expect(await materializeSeries(h.store, h.clock.now())).toHaveLength(3);
    const rows = h.db
      .prepare('SELECT jt.occurrence, j.source, j.status FROM job_times jt JOIN jobs j ON j.id = jt.job_id WHERE jt.series_id = ? ORDER BY jt.occurrence')
      .all(sid) as { occurrence: number; source: string; status: string }[];
    expect(rows).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((occurrence) => ({ occurrence, source: 'mcp', status: 'pending_approval' })));
    const later = ((await (await h.call('GET', `${API}/content/scheduled?job_id=${seriesJobs(h, sid)[7]?.id}`)).json()) as { post: Body }).post;
    expect(later).toMatchObject({ source: 'mcp', status: 'pending_approval', occurrence: 8 });
  });

  it('cancels one occurrence without touching the others, and the whole series', async () => {
    const h = setup();
    const r = await publish(h, { scheduled_for: '2026-03-02T09:00:00Z', recurrence: { rrule: 'FREQ=DAILY', until: '2026-06-30T09:00:00Z' } });
    const sid = r.body.series_id as string;
    const jobs = seriesJobs(h, sid);
    expect(jobs).toHaveLength(30);
    expect((await h.call('DELETE', `${API}/content/scheduled?job_id=${jobs[1]?.id}`)).status).toBe(200);
    const s = await seriesOf(h, sid);
    expect(s.next_occurrences[1]).toMatchObject({ occurrence: 2, status: 'cancelled' });
    expect(s.next_occurrences[2]).toMatchObject({ occurrence: 3, status: 'scheduled' });

    const del = await h.call('DELETE', `${API}/content/series?series_id=${sid}`);
    expect(del.status).toBe(200);
    const body = (await del.json()) as { cancelled_jobs: string[]; status: string };
    expect(body.status).toBe('cancelled');
    expect(body.cancelled_jobs).toHaveLength(29);
    expect(h.db.prepare("SELECT count(*) AS n FROM targets WHERE status <> 'cancelled'").get()).toEqual({ n: 0 });
    await h.clock.advance(40 * DAY);
    expect(await materializeSeries(h.store, h.clock.now())).toEqual([]);
    expect(seriesJobs(h, sid)).toHaveLength(30);
    expect((await seriesOf(h, sid)).status).toBe('cancelled');
    // Another user's series is not theirs to see or cancel.
    const other = h.addUser('other@example.com');
    expect((await h.call('DELETE', `${API}/content/series?series_id=${sid}`, { headers: { 'X-API-Key': other.key } })).status).toBe(403);
    expect((await h.call('GET', `${API}/content/series?series_id=ser_nope`)).status).toBe(404);
  });

  it('computes and creates a series of 100 occurrences', async () => {
    const h = setup(Date.UTC(2026, 0, 1));
    const r = await publish(h, { scheduled_for: '2026-01-05T09:00:00', timezone: 'Australia/Lord_Howe', recurrence: { rrule: 'FREQ=DAILY;COUNT=100' } });
    const sid = r.body.series_id as string;
    for (let day = 0; day < 110; day++) {
      await h.clock.advance(DAY);
      await materializeSeries(h.store, h.clock.now());
    }
    const jobs = seriesJobs(h, sid);
    expect(jobs).toHaveLength(100);
    expect(jobs.map((j) => j.occurrence)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(jobs.every((j) => j.local.endsWith('T09:00:00'))).toBe(true);
    // 2026-04-05: Lord Howe falls back 30 minutes; 09:00 is 22:00Z before and 22:30Z after.
    expect([jobs[88]?.local, new Date(jobs[88]!.at).toISOString()]).toEqual(['2026-04-03T09:00:00', '2026-04-02T22:00:00.000Z']);
    expect([jobs[90]?.local, new Date(jobs[90]!.at).toISOString()]).toEqual(['2026-04-05T09:00:00', '2026-04-04T22:30:00.000Z']);
    expect(jobs[99]?.local).toBe('2026-04-14T09:00:00');
    expect((await seriesOf(h, sid)).status).toBe('finished');
  });

  it('reads until as a wall time in the post zone (inclusive), and refuses one without a zone', async () => {
    const h = setup();
    const r = await publish(h, { scheduled_for: '2026-03-02T09:00:00', timezone: 'Europe/Berlin', recurrence: { rrule: 'FREQ=DAILY', until: '2026-03-05T09:00:00' } });
    expect(r.status).toBe(200);
    expect((await seriesOf(h, r.body.series_id as string)).total).toBe(4);
    const bad = await h.call('POST', `${API}/content/publish`, {
      body: { caption: 'x', platforms: ['threads'], scheduled_for: '2026-03-02T09:00:00Z', recurrence: { rrule: 'FREQ=DAILY', until: '2026-03-05T09:00:00' } },
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.[0]?.path).toBe('recurrence.until');
  });

  it('warns when the caption would repeat on a platform that refuses duplicates', async () => {
    const h = setup();
    const body = { caption: 'same words', platforms: ['twitter', 'threads'], scheduled_for: '2026-03-02T09:00:00Z', recurrence: { rrule: 'FREQ=WEEKLY', count: 3 } };
    const v = (await (await h.call('POST', `${API}/content/validate`, { body })).json()) as Body;
    expect(v).toMatchObject({ valid: true, warnings: [{ path: 'caption', code: 'duplicate_caption', platform: 'twitter' }] });
    const r = await publish(h, body);
    expect((r.body.warnings as Body[]).map((w) => w.platform)).toEqual(['twitter']);
    expect((await publish(h, { ...body, recurrence: undefined })).body.warnings).toEqual([]);
  });

  it.each([
    [{ recurrence: { rrule: 'FREQ=SOMETIMES', count: 3 } }, 'recurrence.rrule'],
    [{ recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=XX', count: 3 } }, 'recurrence.rrule'],
    [{ recurrence: { rrule: 'FREQ=WEEKLY' } }, 'recurrence.count'],
    [{ recurrence: { rrule: 'FREQ=DAILY', count: 501 } }, 'recurrence.count'],
    [{ recurrence: { rrule: 'FREQ=DAILY', until: '2028-01-01T00:00:00Z' } }, 'recurrence.rrule'],
    [{ recurrence: { rrule: 'FREQ=HOURLY', count: 3 } }, 'recurrence.rrule'],
    [{ recurrence: { rrule: 'FREQ=DAILY', count: 3 }, type_schedule: { threads: '2026-03-03T10:00:00Z' } }, 'type_schedule.threads'],
    [{ recurrence: { rrule: 'FREQ=DAILY', count: 3 }, scheduled_for: undefined, publish_now: true }, 'recurrence'],
    [{ recurrence: { rrule: 'FREQ=DAILY', count: 3, until: '2026-04-01T00:00:00Z' } }, 'recurrence.until'],
  ])('answers 400 for %j and stores nothing', async (extra, path) => {
    const h = setup();
    const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'x', platforms: ['threads'], scheduled_for: '2026-03-02T09:00:00Z', ...extra } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.[0]?.path).toBe(path);
    expect([count(h, 'jobs'), count(h, 'series')]).toEqual([0, 0]);
  });
});
