import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock';
import { API, errorOf, harness } from '../http/harness';

const JAN_1 = Date.UTC(2026, 0, 1);

function setup() {
  const h = harness({ clock: new ManualClock(JAN_1) });
  h.connect(['twitter', 'instagram', 'threads']);
  return h;
}

type Body = Record<string, unknown>;
const jobsCount = (h: ReturnType<typeof setup>) => (h.db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n;

describe('timezone on publish', () => {
  it('reads a local wall time in the request zone and stores and shows instant, zone and wall time', async () => {
    const h = setup();
    const res = await h.call('POST', `${API}/content/publish`, {
      body: { caption: 'hi', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00', timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Body;
    expect(r).toMatchObject({ scheduled_for: '2026-12-25T09:00:00.000Z', timezone: 'Europe/Berlin', scheduled_local: '2026-12-25T10:00:00', queue_slot: null, series_id: null, warnings: [] });
    const post = ((await (await h.call('GET', `${API}/content/scheduled?job_id=${r.job_id}`)).json()) as { post: Body }).post;
    expect(post).toMatchObject({ scheduled_for: '2026-12-25T09:00:00.000Z', timezone: 'Europe/Berlin', scheduled_local: '2026-12-25T10:00:00' });
    expect((post.targets as Body[])[0]).toMatchObject({ scheduled_for: '2026-12-25T09:00:00.000Z', scheduled_local: '2026-12-25T10:00:00' });
  });

  it('defaults to the user setting (changed through the API), else refuses a wall time as before', async () => {
    const h = setup();
    const body = { caption: 'hi', platforms: ['twitter'], scheduled_for: '2026-07-01T09:00:00' };
    const before = await h.call('POST', `${API}/content/publish`, { body });
    expect(before.status).toBe(400);
    expect((await errorOf(before)).message).toContain('without an offset');
    expect(jobsCount(h)).toBe(0);

    expect(await (await h.call('GET', `${API}/settings`)).json()).toEqual({ success: true, settings: { timezone: null, approval_workflow: false, agent_approval: true } });
    const set = await h.call('PATCH', `${API}/settings`, { body: { timezone: 'asia/kathmandu' } });
    expect(await set.json()).toEqual({ success: true, settings: { timezone: 'Asia/Kathmandu', approval_workflow: false, agent_approval: true } });

    const after = await h.call('POST', `${API}/content/publish`, { body });
    expect(await after.json()).toMatchObject({ scheduled_for: '2026-07-01T03:15:00.000Z', timezone: 'Asia/Kathmandu', scheduled_local: '2026-07-01T09:00:00' });
    // The request's own zone wins over the setting.
    const own = await h.call('POST', `${API}/content/publish`, { body: { ...body, timezone: 'Asia/Tokyo' } });
    expect(await own.json()).toMatchObject({ scheduled_for: '2026-07-01T00:00:00.000Z', timezone: 'Asia/Tokyo' });

    expect((await h.call('PATCH', `${API}/settings`, { body: { timezone: 'Mars/Olympus' } })).status).toBe(400);
    expect((await h.call('PATCH', `${API}/settings`, { body: { timezone: null } })).status).toBe(200);
    expect((await h.call('POST', `${API}/content/publish`, { body })).status).toBe(400);
  });

  it('refuses a spring-forward gap naming the gap and the nearest valid times; stores nothing', async () => {
    const h = setup();
    const res = await h.call('POST', `${API}/content/publish`, {
      body: { caption: 'hi', platforms: ['twitter'], scheduled_for: '2026-03-08T02:30:00', timezone: 'America/New_York' },
    });
    expect(res.status).toBe(400);
    const err = await errorOf(res);
    expect(err.message).toBe(
      'scheduled_for: 2026-03-08T02:30:00 does not exist in America/New_York: clocks jump from 02:00 to 03:00 on 2026-03-08; the nearest valid times are 2026-03-08T01:59:00-05:00 and 2026-03-08T03:00:00-04:00',
    );
    expect(err.details?.[0]).toMatchObject({ path: 'scheduled_for', gap: { from: '02:00', to: '03:00' }, nearest: ['2026-03-08T01:59:00-05:00', '2026-03-08T03:00:00-04:00'] });
    expect(jobsCount(h)).toBe(0);
  });

  it('takes the earlier instant in a fall-back overlap unless an offset says otherwise', async () => {
    const h = setup();
    const publish = async (scheduled_for: string) =>
      (await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'hi', platforms: ['twitter'], scheduled_for, timezone: 'Europe/Berlin' } })).json()) as Body;
    expect(await publish('2026-10-25T02:30:00')).toMatchObject({ scheduled_for: '2026-10-25T00:30:00.000Z', scheduled_local: '2026-10-25T02:30:00' });
    expect(await publish('2026-10-25T02:30:00+01:00')).toMatchObject({ scheduled_for: '2026-10-25T01:30:00.000Z', scheduled_local: '2026-10-25T02:30:00' });
  });

  it('reads absolute type_schedule values in the zone and keeps offsets as elapsed time', async () => {
    const h = setup();
    const res = await h.call('POST', `${API}/content/publish`, {
      body: {
        caption: 'hi',
        platforms: ['threads', 'twitter'],
        scheduled_for: '2026-11-01T00:30:00',
        type_schedule: { threads: '+2h', twitter: '2026-11-01T01:30:00' },
        timezone: 'America/New_York',
      },
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as { scheduled_for: string; targets: { platform: string; type: string; scheduled_for: string }[] };
    expect(r.scheduled_for).toBe('2026-11-01T04:30:00.000Z');
    // +2h from 00:30 EDT is two elapsed hours (01:30 EST), not 02:30 on the wall; the wall time 01:30 is the earlier (EDT) one.
    expect(r.targets.map((t) => `${t.platform}.${t.type} ${t.scheduled_for}`)).toEqual(['threads.post 2026-11-01T06:30:00.000Z', 'twitter.tweet 2026-11-01T05:30:00.000Z']);
  });

  it.each([
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ timezone: '+02:00' }, 'timezone'],
    [{ timezone: 42 }, 'timezone'],
    [{ scheduled_for: '2026-02-30T10:00:00', timezone: 'UTC' }, 'scheduled_for'],
  ])('answers 400 for %j and stores nothing', async (extra, path) => {
    const h = setup();
    const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'hi', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00', ...extra } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.[0]?.path).toBe(path);
    expect(jobsCount(h)).toBe(0);
  });
});

describe('timezone on PATCH', () => {
  async function scheduled(h: ReturnType<typeof setup>, body: Body): Promise<string> {
    const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'hi', platforms: ['twitter'], ...body } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { job_id: string }).job_id;
  }
  const patch = async (h: ReturnType<typeof setup>, id: string, body: Body) => h.call('PATCH', `${API}/content/scheduled?job_id=${id}`, { body });

  it('keeps the post zone when retimed with a wall time', async () => {
    const h = setup();
    const id = await scheduled(h, { scheduled_for: '2026-03-01T09:00:00', timezone: 'America/New_York' });
    const res = await patch(h, id, { scheduled_for: '2026-03-09T09:00:00' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { post: Body }).post).toMatchObject({ scheduled_for: '2026-03-09T13:00:00.000Z', timezone: 'America/New_York', scheduled_local: '2026-03-09T09:00:00' });
  });

  it('keeps the wall time and moves the instant when only the zone changes', async () => {
    const h = setup();
    const id = await scheduled(h, { scheduled_for: '2026-06-01T10:00:00', timezone: 'America/New_York' });
    const res = await patch(h, id, { timezone: 'Europe/Berlin' });
    expect(((await res.json()) as { post: Body }).post).toMatchObject({ scheduled_for: '2026-06-01T08:00:00.000Z', timezone: 'Europe/Berlin', scheduled_local: '2026-06-01T10:00:00' });
  });

  it('refuses a gap on PATCH and leaves the post as it was', async () => {
    const h = setup();
    const id = await scheduled(h, { scheduled_for: '2026-10-03T12:00:00', timezone: 'Australia/Lord_Howe' });
    const res = await patch(h, id, { scheduled_for: '2026-10-04T02:10:00' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.[0]).toMatchObject({ gap: { from: '02:00', to: '02:30' }, nearest: ['2026-10-04T01:59:00+10:30', '2026-10-04T02:30:00+11:00'] });
    const post = ((await (await h.call('GET', `${API}/content/scheduled?job_id=${id}`)).json()) as { post: Body }).post;
    expect(post).toMatchObject({ scheduled_for: '2026-10-03T01:30:00.000Z', scheduled_local: '2026-10-03T12:00:00' });
  });

  it('still takes instants with Z, and shows posts made without a zone in UTC', async () => {
    const h = setup();
    const id = await scheduled(h, { scheduled_for: '2026-12-25T10:00:00Z' });
    const res = await patch(h, id, { scheduled_for: '2026-12-26T10:00:00Z' });
    expect(((await res.json()) as { post: Body }).post).toMatchObject({ scheduled_for: '2026-12-26T10:00:00.000Z', timezone: 'UTC', scheduled_local: '2026-12-26T10:00:00' });
  });
});
