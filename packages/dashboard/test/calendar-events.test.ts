import { describe, expect, it } from 'vitest';
import type { Post } from '../src/lib/types';
import { condenseDays, inRange, movedWall, postEvents, seriesEvents, slotEvents } from '../src/screens/calendar-events';

const target = (platform: string, type: string, at: string, status = 'scheduled') => ({ platform, type, scheduled_for: at, status, attempts: 0, post_id: null, post_url: null, published_at: null, error: null });
const post = (over: Partial<Post>): Post =>
  ({
    job_id: 'job_1',
    status: 'scheduled',
    caption: 'Launch\nsecond line',
    platforms: ['instagram', 'twitter'],
    platform_captions: {},
    platform_types: {},
    media_urls: [],
    scheduled_for: '2027-03-25T09:00:00.000Z',
    type_schedule: {},
    require_approval: false,
    platform_options: {},
    source: 'api',
    created_at: '2027-03-01T00:00:00.000Z',
    updated_at: '2027-03-01T00:00:00.000Z',
    targets: [],
    ...over,
  }) as Post;

describe('calendar entries', () => {
  it('names the account of each target when it is not the one labelled default', () => {
    const p = post({
      platforms: ['twitter', 'twitter:brand'],
      targets: [
        { ...target('twitter', 'tweet', '2027-03-25T09:00:00.000Z'), label: 'default', connection_id: 'con_a' },
        { ...target('twitter', 'tweet', '2027-03-25T09:00:00.000Z'), label: 'brand', connection_id: 'con_b' },
      ],
    } as Partial<Post>);
    expect(postEvents([p], { platforms: new Set(), status: 'all' }).map((e) => e.title)).toEqual(['X, X (brand): Launch']);
  });

  it('places a post once per due time, its targets together, movable while they have not started', () => {
    const p = post({
      targets: [target('instagram', 'story', '2027-03-25T09:00:00.000Z'), target('twitter', 'tweet', '2027-03-25T09:00:00.000Z'), target('instagram', 'feed', '2027-03-25T10:00:00.000Z', 'published')],
    } as Partial<Post>);
    const events = postEvents([p], { platforms: new Set(), status: 'all' });
    expect(events.map((e) => [e.start, e.title, e.editable])).toEqual([
      ['2027-03-25T09:00:00.000Z', 'Instagram story, X: Launch', true],
      ['2027-03-25T10:00:00.000Z', 'Instagram feed post: Launch', false],
    ]);
    expect(postEvents([p], { platforms: new Set(['twitter']), status: 'all' }).map((e) => e.title)).toEqual(['X: Launch']);
    expect(postEvents([p], { platforms: new Set(), status: 'published' }).map((e) => e.title)).toEqual(['Instagram feed post: Launch']);
    expect(postEvents([post({ scheduled_for: null, targets: [target('twitter', 'tweet', '2027-03-25T09:00:00.000Z')] } as Partial<Post>)], { platforms: new Set(), status: 'all' })[0]!.editable).toBe(false);
  });

  it('moves the base wall time by the calendar delta, the same local time across DST', () => {
    const base = { year: 2027, month: 3, day: 25, hour: 10, minute: 0, second: 0 };
    expect(movedWall(base, { years: 0, months: 0, days: 5, milliseconds: 0 })).toBe('2027-03-30T10:00:00');
    expect(movedWall(base, { years: 0, months: 1, days: 0, milliseconds: 0 })).toBe('2027-04-25T10:00:00');
    expect(movedWall(base, { years: 0, months: 0, days: 3, milliseconds: -7.5 * 3600_000 })).toBe('2027-03-28T02:30:00');
    expect(movedWall({ ...base, month: 12, day: 31 }, { years: 0, months: 0, days: 1, milliseconds: 0 })).toBe('2028-01-01T10:00:00');
  });

  it('shows free queue slots and planned occurrences of a series, never draggable', () => {
    expect(slotEvents({ success: true, slots: [{ scheduled_for: '2027-03-29T07:00:00.000Z', scheduled_local: '2027-03-29T09:00:00', timezone: 'Europe/Berlin', slot: 'mon 09:00', free: 2 }] } as never)).toEqual([
      { id: 'slot@2027-03-29T07:00:00.000Z', start: '2027-03-29T07:00:00.000Z', title: 'Free queue slot mon 09:00 (2 free)', classNames: ['slot'], editable: false },
    ]);
    const series = {
      success: true,
      series: [
        { series_id: 'ser_1', status: 'active', total: 10, caption: 'Weekly tip', next_occurrences: [{ occurrence: 3, scheduled_for: '2027-04-01T08:00:00.000Z', scheduled_local: '', job_id: null, status: 'planned' }, { occurrence: 2, scheduled_for: '2027-03-25T09:00:00.000Z', scheduled_local: '', job_id: 'job_2', status: 'scheduled' }] },
        { series_id: 'ser_2', status: 'cancelled', total: 3, caption: 'x', next_occurrences: [{ occurrence: 1, scheduled_for: '2027-04-01T08:00:00.000Z', scheduled_local: '', job_id: null, status: 'planned' }] },
      ],
    };
    expect(seriesEvents(series as never).map((e) => [e.title, e.editable])).toEqual([['↻ Repeat 3/10: Weekly tip', false]]);
  });
});

describe('a crowded month', () => {
  const at = (iso: string, id: string) => ({ id, start: iso, title: id });
  it('keeps three entries a day and one "+N more posts" entry that opens the day', () => {
    const day = Array.from({ length: 7 }, (_, i) => at(`2027-01-05T0${i + 1}:00:00.000Z`, `p${i}`));
    const quiet = [at('2027-01-06T10:00:00.000Z', 'q0'), at('2027-01-06T11:00:00.000Z', 'q1'), at('2027-01-06T12:00:00.000Z', 'q2'), at('2027-01-06T13:00:00.000Z', 'q3')];
    const out = condenseDays([...day.reverse(), ...quiet], (iso) => iso.slice(0, 10));
    expect(out.map((e) => e.id)).toEqual(['p0', 'p1', 'p2', 'more@2027-01-05', 'q0', 'q1', 'q2', 'q3']);
    expect(out[3]).toMatchObject({ title: '+4 more posts', start: '2027-01-05', allDay: true, editable: false, extendedProps: { day: '2027-01-05' } });
    // The calendar orders by `order` first: "+N more" (an all-day entry) after the day's entries.
    expect(out.map((e) => (e.extendedProps as { order: number }).order)).toEqual([0, 0, 0, 1, 0, 0, 0, 0]);
  });
  it('hands FullCalendar only the visible range', () => {
    const list = [at('2026-12-31T23:59:59.000Z', 'a'), at('2027-01-01T00:00:00.000Z', 'b'), at('2027-02-01T00:00:00.000Z', 'c')];
    expect(inRange(list, new Date('2027-01-01T00:00:00Z'), new Date('2027-02-01T00:00:00Z')).map((e) => e.id)).toEqual(['b']);
  });
});

describe('days in the zone', () => {
  it("gives an instant's local date in the calendar's zone, across midnight and DST", async () => {
    const { dayInZone } = await import('../src/lib/time');
    const berlin = dayInZone('Europe/Berlin');
    expect(berlin('2027-03-27T22:59:59.000Z')).toBe('2027-03-27'); // 23:59 CET
    expect(berlin('2027-03-27T23:00:00.000Z')).toBe('2027-03-28'); // 00:00 CET
    expect(berlin('2027-03-28T21:59:00.000Z')).toBe('2027-03-28'); // 23:59 CEST
    expect(berlin('2027-03-28T22:00:00.000Z')).toBe('2027-03-29');
    expect(dayInZone('America/Los_Angeles')('2027-01-01T07:59:00.000Z')).toBe('2026-12-31');
    expect(berlin('2027-03-28')).toBe('2027-03-28');
  });

  it("gives the instant a local day starts in the zone, on either side of a DST change (the filters' From and To)", async () => {
    const { nextDay, startOfDayIn } = await import('../src/lib/time');
    expect(startOfDayIn('2027-03-28', 'Europe/Berlin')).toBe('2027-03-27T23:00:00.000Z');
    expect(startOfDayIn('2027-03-29', 'Europe/Berlin')).toBe('2027-03-28T22:00:00.000Z');
    expect(startOfDayIn('2026-12-31', 'America/Los_Angeles')).toBe('2026-12-31T08:00:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });
});
