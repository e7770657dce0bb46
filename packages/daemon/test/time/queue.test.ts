import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock';
import { API, errorOf, harness } from '../http/harness';

type Body = Record<string, unknown>;

function setup(start = Date.UTC(2026, 2, 20, 12)) {
  const h = harness({ clock: new ManualClock(start) });
  h.connect(['twitter', 'threads', 'instagram']);
  return h;
}
const putQueue = (h: ReturnType<typeof setup>, body: Body) => h.call('PUT', `${API}/queue`, { body });
const queued = async (h: ReturnType<typeof setup>, extra: Body = {}) => {
  const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'hi', platforms: ['twitter'], queue: true, ...extra } });
  return { status: res.status, body: (await res.json()) as Body };
};
const next = async (h: ReturnType<typeof setup>, query = '') => ((await (await h.call('GET', `${API}/queue/next${query}`)).json()) as { slots: Body[] }).slots;
const jobsCount = (h: ReturnType<typeof setup>) => (h.db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n;

describe('queue', () => {
  it('is read and replaced through the API, defaulting to the user zone', async () => {
    const h = setup();
    expect(await (await h.call('GET', `${API}/queue`)).json()).toEqual({ success: true, queue: { timezone: 'UTC', capacity: 1, slots: [] } });
    await h.call('PATCH', `${API}/settings`, { body: { timezone: 'Europe/Berlin' } });
    const res = await putQueue(h, { slots: [{ day: 'mon', time: '09:00' }, { day: 'fri', time: '13:00', platforms: ['twitter'], capacity: 2 }] });
    const queue = { timezone: 'Europe/Berlin', capacity: 1, slots: [{ day: 'mon', time: '09:00' }, { day: 'fri', time: '13:00', platforms: ['twitter'], capacity: 2 }] };
    expect(await res.json()).toEqual({ success: true, queue });
    expect(await (await h.call('GET', `${API}/queue`)).json()).toEqual({ success: true, queue });
  });

  it.each([
    [{ slots: [{ day: 'mon', time: '9:00' }] }, 'slots.0.time'],
    [{ slots: [{ day: 'monday', time: '09:00' }] }, 'slots.0.day'],
    [{ slots: [{ day: 'mon', time: '09:00' }, { day: 'mon', time: '09:00' }] }, 'slots.1'],
    [{ timezone: 'Nowhere/Land', slots: [] }, 'timezone'],
    [{ capacity: 0, slots: [] }, 'capacity'],
    [{ slots: [{ day: 'mon', time: '09:00', platforms: ['myspace'] }] }, 'slots.0.platforms.0'],
  ])('refuses %j with a 400 naming %s, and keeps the queue', async (body, path) => {
    const h = setup();
    await putQueue(h, { slots: [{ day: 'tue', time: '10:00' }] });
    const res = await putQueue(h, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.[0]?.path).toBe(path);
    expect(((await (await h.call('GET', `${API}/queue`)).json()) as { queue: { slots: unknown[] } }).queue.slots).toEqual([{ day: 'tue', time: '10:00' }]);
  });

  it('gives queued posts the next free slots in order, capacity per slot, and frees a slot on cancel', async () => {
    const h = setup(); // Friday 2026-03-20 12:00Z
    await putQueue(h, { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }, { day: 'fri', time: '14:00', capacity: 2 }] });
    const a = await queued(h);
    const b = await queued(h);
    const c = await queued(h);
    expect(a.status).toBe(200);
    expect([a, b, c].map((x) => [x.body.scheduled_for, x.body.scheduled_local, x.body.queue_slot])).toEqual([
      ['2026-03-20T13:00:00.000Z', '2026-03-20T14:00:00', 'fri 14:00'],
      ['2026-03-20T13:00:00.000Z', '2026-03-20T14:00:00', 'fri 14:00'],
      ['2026-03-23T08:00:00.000Z', '2026-03-23T09:00:00', 'mon 09:00'],
    ]);
    expect(await next(h, '?count=2')).toEqual([
      { scheduled_for: '2026-03-27T13:00:00.000Z', scheduled_local: '2026-03-27T14:00:00', timezone: 'Europe/Berlin', slot: 'fri 14:00', free: 2 },
      // After the change to summer time: 09:00 local is 07:00Z.
      { scheduled_for: '2026-03-30T07:00:00.000Z', scheduled_local: '2026-03-30T09:00:00', timezone: 'Europe/Berlin', slot: 'mon 09:00', free: 1 },
    ]);
    expect((await h.call('DELETE', `${API}/content/scheduled?job_id=${a.body.job_id}`)).status).toBe(200);
    expect((await next(h, '?count=1'))[0]).toMatchObject({ scheduled_for: '2026-03-20T13:00:00.000Z', free: 1 });
    expect((await queued(h)).body).toMatchObject({ scheduled_for: '2026-03-20T13:00:00.000Z', queue_slot: 'fri 14:00' });
  });

  it('keeps weekly slots at the same wall time across the change, in every zone', async () => {
    const cases = [
      { zone: 'America/New_York', start: Date.UTC(2026, 2, 1), expect: ['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z'] },
      { zone: 'Australia/Lord_Howe', start: Date.UTC(2026, 2, 29), expect: ['2026-03-29T22:00:00.000Z', '2026-04-05T22:30:00.000Z'] },
      { zone: 'Asia/Kathmandu', start: Date.UTC(2026, 2, 1), expect: ['2026-03-02T03:15:00.000Z', '2026-03-09T03:15:00.000Z'] },
      { zone: 'Asia/Tokyo', start: Date.UTC(2026, 2, 1), expect: ['2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z'] },
    ];
    for (const c of cases) {
      const h = setup(c.start);
      await putQueue(h, { timezone: c.zone, slots: [{ day: 'mon', time: '09:00' }] });
      const got = [(await queued(h)).body, (await queued(h)).body];
      expect(got.map((x) => x.scheduled_for), c.zone).toEqual(c.expect);
      expect(got.map((x) => x.scheduled_local), c.zone).toEqual([expect.stringMatching(/T09:00:00$/), expect.stringMatching(/T09:00:00$/)]);
    }
  });

  it('gives a post only slots that take all its platforms', async () => {
    const h = setup();
    await putQueue(h, { timezone: 'UTC', slots: [{ day: 'sat', time: '10:00', platforms: ['twitter'] }, { day: 'sun', time: '10:00' }] });
    expect((await queued(h, { platforms: ['twitter', 'threads'] })).body).toMatchObject({ scheduled_for: '2026-03-22T10:00:00.000Z', queue_slot: 'sun 10:00' });
    expect((await queued(h, { platforms: ['twitter'] })).body).toMatchObject({ scheduled_for: '2026-03-21T10:00:00.000Z', queue_slot: 'sat 10:00 twitter' });
    expect((await next(h, '?count=1&platforms=threads'))[0]).toMatchObject({ scheduled_for: '2026-03-29T10:00:00.000Z', slot: 'sun 10:00' });
    expect((await h.call('GET', `${API}/queue/next?platforms=myspace`)).status).toBe(400);
    expect((await h.call('GET', `${API}/queue/next?count=0`)).status).toBe(400);
  });

  it('answers 400 for queue with a time, and for a queue with no slots; nothing stored', async () => {
    const h = setup();
    const empty = await queued(h);
    expect(empty.status).toBe(400);
    expect((empty.body as { error: { message: string } }).error.message).toContain('your queue has no slots');
    await putQueue(h, { slots: [{ day: 'mon', time: '09:00' }] });
    for (const extra of [{ scheduled_for: '2026-04-01T10:00:00Z' }, { publish_now: true }]) {
      const res = await queued(h, extra);
      expect(res.status).toBe(400);
      expect((res.body as { error: { details: { path: string }[] } }).error.details[0]?.path).toBe('queue');
    }
    expect(jobsCount(h)).toBe(0);
  });

  it('answers 409 when every slot of the coming year is full', async () => {
    const h = setup();
    await putQueue(h, { slots: [{ day: 'mon', time: '09:00', platforms: ['threads'] }] });
    const res = await queued(h, { platforms: ['twitter'] });
    expect(res.status).toBe(409);
    expect(jobsCount(h)).toBe(0);
  });
});
