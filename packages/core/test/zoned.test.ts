import { describe, expect, it } from 'vitest';
import {
  canonicalZone,
  expandSeries,
  formatInstant,
  planTargets,
  repeatToRrule,
  resolveTimeIn,
  slotInstancesAfter,
  wallTimeOf,
  type WeeklySlot,
} from '../src';

const Z = (iso: string) => Date.parse(iso);

/** Local wall times on both sides of each zone's 2026 transitions, with the instants the zone rules give. */
const WALL_TIMES: { zone: string; local: string; utc: string; note: string }[] = [
  { zone: 'America/New_York', local: '2026-03-08T01:59:00', utc: '2026-03-08T06:59:00Z', note: 'just before spring-forward (EST)' },
  { zone: 'America/New_York', local: '2026-03-08T03:00:00', utc: '2026-03-08T07:00:00Z', note: 'first minute after it (EDT)' },
  { zone: 'America/New_York', local: '2026-11-01T00:59:00', utc: '2026-11-01T04:59:00Z', note: 'before fall-back (EDT)' },
  { zone: 'America/New_York', local: '2026-11-01T01:30:00', utc: '2026-11-01T05:30:00Z', note: 'overlap: the earlier (EDT) instant' },
  { zone: 'America/New_York', local: '2026-11-01T01:30:00-05:00', utc: '2026-11-01T06:30:00Z', note: 'overlap with an offset: the later instant' },
  { zone: 'America/New_York', local: '2026-11-01T02:00:00', utc: '2026-11-01T07:00:00Z', note: 'after fall-back (EST)' },
  { zone: 'Europe/Berlin', local: '2026-03-29T01:59:00', utc: '2026-03-29T00:59:00Z', note: 'before spring-forward (CET)' },
  { zone: 'Europe/Berlin', local: '2026-03-29T03:00:00', utc: '2026-03-29T01:00:00Z', note: 'after it (CEST)' },
  { zone: 'Europe/Berlin', local: '2026-10-25T01:59:00', utc: '2026-10-24T23:59:00Z', note: 'before fall-back (CEST)' },
  { zone: 'Europe/Berlin', local: '2026-10-25T02:30:00', utc: '2026-10-25T00:30:00Z', note: 'overlap: the earlier (CEST) instant' },
  { zone: 'Europe/Berlin', local: '2026-10-25T02:30:00+01:00', utc: '2026-10-25T01:30:00Z', note: 'overlap with an offset: the later instant' },
  { zone: 'Europe/Berlin', local: '2026-10-25T03:00:00', utc: '2026-10-25T02:00:00Z', note: 'after fall-back (CET)' },
  { zone: 'Australia/Lord_Howe', local: '2026-04-05T01:29:00', utc: '2026-04-04T14:29:00Z', note: 'before the 30-minute fall-back (+11:00)' },
  { zone: 'Australia/Lord_Howe', local: '2026-04-05T01:45:00', utc: '2026-04-04T14:45:00Z', note: 'overlap: the earlier (+11:00) instant' },
  { zone: 'Australia/Lord_Howe', local: '2026-04-05T02:00:00', utc: '2026-04-04T15:30:00Z', note: 'after fall-back (+10:30)' },
  { zone: 'Australia/Lord_Howe', local: '2026-10-04T01:59:00', utc: '2026-10-03T15:29:00Z', note: 'before the 30-minute spring-forward (+10:30)' },
  { zone: 'Australia/Lord_Howe', local: '2026-10-04T02:30:00', utc: '2026-10-03T15:30:00Z', note: 'after it (+11:00)' },
  { zone: 'Asia/Kathmandu', local: '2026-03-08T02:30:00', utc: '2026-03-07T20:45:00Z', note: '+05:45, no DST' },
  { zone: 'Asia/Kathmandu', local: '2026-11-01T01:30:00', utc: '2026-10-31T19:45:00Z', note: '+05:45 all year' },
  { zone: 'Asia/Tokyo', local: '2026-03-08T02:30:00', utc: '2026-03-07T17:30:00Z', note: '+09:00, no DST' },
  { zone: 'Asia/Tokyo', local: '2026-11-01T01:30:00', utc: '2026-10-31T16:30:00Z', note: '+09:00 all year' },
];

/** Local times a spring-forward change skips: refused, naming the gap and the nearest valid times. */
const GAPS: { zone: string; local: string; from: string; to: string; nearest: [string, string] }[] = [
  { zone: 'America/New_York', local: '2026-03-08T02:30:00', from: '02:00', to: '03:00', nearest: ['2026-03-08T01:59:00-05:00', '2026-03-08T03:00:00-04:00'] },
  { zone: 'Europe/Berlin', local: '2026-03-29T02:00:00', from: '02:00', to: '03:00', nearest: ['2026-03-29T01:59:00+01:00', '2026-03-29T03:00:00+02:00'] },
  { zone: 'Australia/Lord_Howe', local: '2026-10-04T02:15:00', from: '02:00', to: '02:30', nearest: ['2026-10-04T01:59:00+10:30', '2026-10-04T02:30:00+11:00'] },
];

describe('local wall times in a zone', () => {
  it.each(WALL_TIMES)('$zone $local -> $utc ($note)', ({ zone, local, utc }) => {
    const r = resolveTimeIn(local, zone);
    expect(r).toEqual({ ok: true, at: Z(utc) });
  });

  it.each(GAPS)('$zone refuses $local (gap $from-$to) and names the nearest valid times', ({ zone, local, from, to, nearest }) => {
    const r = resolveTimeIn(local, zone);
    expect(r.ok).toBe(false);
    if (r.ok || r.reason !== 'gap') throw new Error('expected a gap');
    expect(r.gap).toEqual({ from, to, nearest });
    expect(r.message).toContain(`clocks jump from ${from} to ${to}`);
    expect(r.message).toContain(nearest[0]);
    expect(r.message).toContain(nearest[1]);
  });

  it('keeps the instant of a time with Z or an offset whatever the zone', () => {
    expect(resolveTimeIn('2026-03-08T02:30:00Z', 'America/New_York')).toEqual({ ok: true, at: Z('2026-03-08T02:30:00Z') });
    expect(resolveTimeIn('2026-12-25T10:00:00+05:45', 'Asia/Tokyo')).toEqual({ ok: true, at: Z('2026-12-25T04:15:00Z') });
  });

  it('needs a zone for a wall time, and refuses impossible dates', () => {
    expect(resolveTimeIn('2026-12-25T10:00:00', null)).toMatchObject({ ok: false, reason: 'needs_zone' });
    expect(resolveTimeIn('2026-02-30T10:00:00', 'Europe/Berlin')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(resolveTimeIn('2026-12-25', 'Europe/Berlin')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('shows instants as local wall times', () => {
    expect(wallTimeOf(Z('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00');
    expect(wallTimeOf(Z('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00');
    expect(wallTimeOf(Z('2026-12-25T04:15:00Z'), 'Asia/Kathmandu')).toBe('2026-12-25T10:00:00');
  });

  it('knows IANA names and refuses the rest', () => {
    expect(canonicalZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Olympus', '+02:00', 'EST5EDT6', '', '../etc/passwd']) expect(canonicalZone(bad), bad).toBeNull();
  });
});

describe('planTargets with a zone', () => {
  const now = Z('2026-01-01T00:00:00Z');
  it('reads scheduled_for and absolute type_schedule values as wall times; offsets stay elapsed durations', () => {
    const plan = planTargets(
      {
        platforms: ['instagram'],
        platform_types: { instagram: ['story', 'feed', 'reels'] },
        scheduled_for: '2026-11-01T00:30:00',
        type_schedule: { story: '+1h', feed: '+2h', reels: '2026-11-01T01:30:00' },
        timezone: 'America/New_York',
      },
      now,
    );
    if (!plan.ok) throw new Error(JSON.stringify(plan.issues));
    expect(plan.base).toBe(Z('2026-11-01T04:30:00Z'));
    const due = Object.fromEntries(plan.targets.map((t) => [t.type, formatInstant(t.dueAt)]));
    // +2h across the fall-back is two elapsed hours: 01:30 EST, not 02:30 local.
    expect(due).toEqual({ story: '2026-11-01T05:30:00.000Z', feed: '2026-11-01T06:30:00.000Z', reels: '2026-11-01T05:30:00.000Z' });
  });

  it('refuses a gap with the gap in the detail', () => {
    const plan = planTargets({ platforms: ['twitter'], scheduled_for: '2026-03-29T02:30:00', timezone: 'Europe/Berlin' }, now);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.issues[0]).toMatchObject({ path: 'scheduled_for', gap: { from: '02:00', to: '03:00' }, nearest: ['2026-03-29T01:59:00+01:00', '2026-03-29T03:00:00+02:00'] });
  });

  it('refuses a wall time without a zone, as before', () => {
    const plan = planTargets({ platforms: ['twitter'], scheduled_for: '2026-03-29T10:00:00' }, now);
    expect(plan.ok).toBe(false);
  });
});

/** A Monday 09:00 slot on the Mondays around each zone's spring change: 09:00 local both times. */
const WEEKLY: { zone: string; from: string; before: string; after: string }[] = [
  { zone: 'America/New_York', from: '2026-03-01T00:00:00Z', before: '2026-03-02T14:00:00Z', after: '2026-03-09T13:00:00Z' },
  { zone: 'Europe/Berlin', from: '2026-03-22T00:00:00Z', before: '2026-03-23T08:00:00Z', after: '2026-03-30T07:00:00Z' },
  { zone: 'Australia/Lord_Howe', from: '2026-03-29T00:00:00Z', before: '2026-03-29T22:00:00Z', after: '2026-04-05T22:30:00Z' },
  { zone: 'Australia/Lord_Howe', from: '2026-09-27T00:00:00Z', before: '2026-09-27T22:30:00Z', after: '2026-10-04T22:00:00Z' },
  { zone: 'Asia/Kathmandu', from: '2026-03-01T00:00:00Z', before: '2026-03-02T03:15:00Z', after: '2026-03-09T03:15:00Z' },
  { zone: 'Asia/Tokyo', from: '2026-03-01T00:00:00Z', before: '2026-03-02T00:00:00Z', after: '2026-03-09T00:00:00Z' },
];

describe('weekly slots and weekly recurrence follow wall-clock time', () => {
  it.each(WEEKLY)('$zone: Monday 09:00 slot before and after the change', ({ zone, from, before, after }) => {
    const slots: WeeklySlot[] = [{ day: 'mon', time: '09:00' }];
    const it = slotInstancesAfter(slots, zone, Z(from));
    const got = [it.next().value, it.next().value].map((s) => (s ? formatInstant(s.at) : null));
    expect(got).toEqual([formatInstant(Z(before)), formatInstant(Z(after))]);
  });

  it.each(WEEKLY)('$zone: FREQ=WEEKLY;BYDAY=MO at 09:00 before and after the change', ({ zone, before, after }) => {
    const start = resolveTimeIn(wallTimeOf(Z(before), zone), zone);
    if (!start.ok) throw new Error('start');
    const s = expandSeries({ rrule: 'FREQ=WEEKLY;BYDAY=MO', count: 2 }, start.at, zone);
    expect(s).toEqual({ ok: true, rule: 'FREQ=WEEKLY;BYDAY=MO', occurrences: [Z(before), Z(after)] });
  });

  it('orders slots across days and skips those not after the start', () => {
    const slots: WeeklySlot[] = [
      { day: 'fri', time: '13:00' },
      { day: 'mon', time: '09:00' },
      { day: 'mon', time: '13:00', platforms: ['twitter'] },
    ];
    const it = slotInstancesAfter(slots, 'Europe/Berlin', Z('2026-06-01T07:00:00Z')); // Monday 09:00 CEST exactly
    const got = [1, 2, 3].map(() => it.next().value).map((s) => s && `${wallTimeOf(s.at, 'Europe/Berlin')} ${s.key}`);
    expect(got).toEqual(['2026-06-01T13:00:00 mon 13:00 twitter', '2026-06-05T13:00:00 fri 13:00', '2026-06-08T09:00:00 mon 09:00']);
  });

  it('moves a slot inside a gap forward by the gap, and takes the earlier instant in an overlap', () => {
    const it1 = slotInstancesAfter([{ day: 'sun', time: '02:30' }], 'America/New_York', Z('2026-03-07T00:00:00Z'));
    expect(formatInstant(it1.next().value!.at)).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    const it2 = slotInstancesAfter([{ day: 'sun', time: '01:30' }], 'America/New_York', Z('2026-10-31T00:00:00Z'));
    expect(formatInstant(it2.next().value!.at)).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });
});

describe('series', () => {
  it('computes 100 daily occurrences at 09:00 local across the spring change', () => {
    const zone = 'America/New_York';
    const s = expandSeries({ rrule: 'FREQ=DAILY', count: 100 }, Z('2026-03-01T14:00:00Z'), zone);
    if (!s.ok) throw new Error(s.message);
    expect(s.occurrences).toHaveLength(100);
    expect(s.occurrences.every((at) => wallTimeOf(at, zone).endsWith('T09:00:00'))).toBe(true);
    const days = s.occurrences.map((at) => wallTimeOf(at, zone).slice(0, 10));
    expect(new Set(days).size).toBe(100);
    expect(formatInstant(s.occurrences[0]!)).toBe('2026-03-01T14:00:00.000Z');
    expect(formatInstant(s.occurrences[7]!)).toBe('2026-03-08T13:00:00.000Z');
    expect(formatInstant(s.occurrences[99]!)).toBe('2026-06-08T13:00:00.000Z');
  });

  it('computes 100 weekly occurrences in Lord Howe across two 30-minute changes', () => {
    const zone = 'Australia/Lord_Howe';
    const s = expandSeries({ rrule: 'FREQ=WEEKLY;BYDAY=SU' }, Z('2026-03-01T22:00:00Z').valueOf() - 0, zone);
    expect(s).toMatchObject({ ok: false, path: 'recurrence.count' });
    const ok = expandSeries({ rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=100' }, Z('2026-03-01T22:00:00Z'), zone); // Mon 2026-03-02 09:00 +11
    if (!ok.ok) throw new Error(ok.message);
    expect(ok.occurrences).toHaveLength(100);
    expect(ok.occurrences.every((at) => wallTimeOf(at, zone).endsWith('T09:00:00'))).toBe(true);
    const gaps = ok.occurrences.slice(1).map((at, i) => (at - ok.occurrences[i]!) / 60_000);
    // One week, or a week plus/minus the 30 minutes of a change.
    expect(new Set(gaps)).toEqual(new Set([7 * 1440, 7 * 1440 + 30, 7 * 1440 - 30]));
  });

  it('leaves out an occurrence whose wall time does not exist (RFC 5545)', () => {
    const s = expandSeries({ rrule: 'FREQ=DAILY', count: 3 }, Z('2026-03-07T07:30:00Z'), 'America/New_York'); // 02:30 EST
    if (!s.ok) throw new Error(s.message);
    expect(s.occurrences.map((at) => wallTimeOf(at, 'America/New_York'))).toEqual(['2026-03-07T02:30:00', '2026-03-09T02:30:00', '2026-03-10T02:30:00']);
  });

  it.each([
    ['FREQ=FOO', 'recurrence.rrule'],
    ['BYDAY=MO', 'recurrence.rrule'],
    ['FREQ=WEEKLY;BYDAY=XX', 'recurrence.rrule'],
    ['FREQ=WEEKLY;FOO=1', 'recurrence.rrule'],
    ['FREQ=WEEKLY;BYHOUR=25', 'recurrence.rrule'],
    ['FREQ=HOURLY', 'recurrence.rrule'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20270101T000000Z', 'recurrence.rrule'],
    ['FREQ=DAILY;INTERVAL=0', 'recurrence.rrule'],
    ['FREQ=DAILY;COUNT=501', 'recurrence.rrule'],
    ['FREQ=DAILY;UNTIL=20300101T000000Z', 'recurrence.rrule'],
    ['FREQ=DAILY', 'recurrence.count'],
  ])('refuses %s', (rrule, path) => {
    const s = expandSeries({ rrule }, Z('2026-03-01T09:00:00Z'), 'UTC');
    expect(s).toMatchObject({ ok: false, path });
  });

  it.each([
    ['FREQ=DAILY;BYMINUTE=0,30', /^BYMINUTE=0,30 gives 2 times an hour: a series repeats at most hourly \(several hours of a day with BYHOUR\), so BYMINUTE takes one value/],
    ['FREQ=DAILY;BYSECOND=0,1,2', /^BYSECOND=0,1,2 gives 3 times an hour/],
    ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYSETPOS=169', /^BYSETPOS value "169" asks for date 169 of a week, but this rule has at most 168 dates in a week$/],
    ['FREQ=YEARLY;BYYEARDAY=1,2,3;BYSETPOS=4;COUNT=3', /^BYSETPOS value "4" asks for date 4 of a year, but this rule has at most 3 dates in a year$/],
    ['FREQ=MONTHLY;BYDAY=-1FR,1MO;BYSETPOS=-3;COUNT=3', /^BYSETPOS value "-3" asks for date 3 of a month, but this rule has at most 2 dates in a month$/],
    ['FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=3;COUNT=3', /at most 2 dates in a week$/],
    ['FREQ=YEARLY;BYMONTH=2,11;BYMONTHDAY=31;COUNT=3', /^BYMONTHDAY=31 never falls in BYMONTH=2,11: the rule has no date$/],
    ['FREQ=DAILY;BYYEARDAY=366;BYMONTH=1;COUNT=3', /^matches too rarely to expand: its occurrences are not found within 10 years of FREQ=DAILY periods/],
    ['FREQ=MONTHLY;BYMONTHDAY=29;BYMONTH=2;BYDAY=MO;COUNT=3', /^matches too rarely to expand: .* 50 years of FREQ=MONTHLY/],
  ])('refuses %s, which posts more than daily or makes the expansion search (issue 28)', (rrule, message) => {
    const t0 = performance.now();
    const s = expandSeries({ rrule }, Z('2026-03-01T09:00:00Z'), 'UTC');
    expect(s).toMatchObject({ ok: false, path: 'recurrence.rrule', message: expect.stringMatching(message) });
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('still expands what a kept series needs: one time a day, BYSETPOS within the set, the last weekday of 100 months', () => {
    const start = Z('2026-03-02T09:00:00Z');
    expect(expandSeries({ rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=30;BYSECOND=0;COUNT=500' }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 500 } });
    expect(expandSeries({ rrule: 'FREQ=DAILY;BYDAY=MO;COUNT=500' }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 500 } });
    expect(expandSeries({ rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=100' }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 100 } });
    expect(expandSeries({ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=20' }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 20 } });
    const leapDays = expandSeries({ rrule: 'FREQ=YEARLY;BYYEARDAY=1,60,366;BYSETPOS=3;COUNT=3' }, start, 'UTC');
    if (!leapDays.ok) throw new Error(leapDays.message);
    expect(leapDays.occurrences.map((at) => formatInstant(at).slice(0, 10))).toEqual(['2028-12-31', '2032-12-31', '2036-12-31']);
  });

  it('accepts COUNT or UNTIL inside the rule or as a field, not both', () => {
    const start = Z('2026-03-02T09:00:00Z');
    expect(expandSeries({ rrule: 'RRULE:FREQ=WEEKLY;COUNT=3' }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 3 } });
    expect(expandSeries({ rrule: 'FREQ=WEEKLY', until: Z('2026-03-16T09:00:00Z') }, start, 'UTC')).toMatchObject({ ok: true, occurrences: { length: 3 } });
    expect(expandSeries({ rrule: 'FREQ=WEEKLY;COUNT=3', count: 3 }, start, 'UTC')).toMatchObject({ ok: false, path: 'recurrence.count' });
    expect(expandSeries({ rrule: 'FREQ=WEEKLY', count: 2, until: start }, start, 'UTC')).toMatchObject({ ok: false, path: 'recurrence.until' });
  });
});

describe('friendly repeat forms', () => {
  it.each([
    ['weekly on mon,thu at 09:00', 'FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0'],
    ['weekly on monday, thursday at 9:30', 'FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=30;BYSECOND=0'],
    ['daily at 18:05', 'FREQ=DAILY;BYHOUR=18;BYMINUTE=5;BYSECOND=0'],
    ['weekdays', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
    ['monthly on 15', 'FREQ=MONTHLY;BYMONTHDAY=15'],
    ['weekly', 'FREQ=WEEKLY'],
    ['FREQ=DAILY;BYHOUR=9', 'FREQ=DAILY;BYHOUR=9'],
  ])('%s -> %s', (text, rrule) => expect(repeatToRrule(text)).toBe(rrule));

  it.each(['fortnightly', 'weekly on funday', 'daily at 25:00', 'monthly on 32', 'daily on mon'])('does not understand %s', (text) =>
    expect(repeatToRrule(text)).toBeNull(),
  );
});
