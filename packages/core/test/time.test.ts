import { describe, expect, it } from 'vitest';
import { formatInstant, parseInstant, parseOffset, parseScheduleValue } from '../src/time';

describe('parseInstant', () => {
  it('reads UTC and offset forms to the same instant', () => {
    expect(parseInstant('2026-12-25T10:00:00Z')).toBe(Date.UTC(2026, 11, 25, 10));
    expect(parseInstant('2026-12-25T11:30:00+01:30')).toBe(Date.UTC(2026, 11, 25, 10));
    expect(parseInstant('2026-12-25T10:00:00.250Z')).toBe(Date.UTC(2026, 11, 25, 10, 0, 0, 250));
    expect(parseInstant('2026-12-25T10:00Z')).toBe(Date.UTC(2026, 11, 25, 10));
  });
  it('refuses times without a zone, dates alone and impossible dates', () => {
    for (const bad of ['2026-12-25T10:00:00', '2026-12-25', '2026-02-30T10:00:00Z', '2026-12-25T24:00:00Z', '2026-13-01T00:00:00Z', 'tomorrow', '2026-12-25T10:00:60Z', '']) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });
  it('writes UTC with milliseconds', () => {
    expect(formatInstant(Date.UTC(2026, 11, 25, 10))).toBe('2026-12-25T10:00:00.000Z');
  });
});

describe('parseOffset', () => {
  it('reads hours, minutes and both', () => {
    expect(parseOffset('+0h')).toBe(0);
    expect(parseOffset('+1h')).toBe(3_600_000);
    expect(parseOffset('+30m')).toBe(1_800_000);
    expect(parseOffset('+1h30m')).toBe(5_400_000);
  });
  it('refuses malformed offsets and more than 8760 hours', () => {
    for (const bad of ['1h', '+', '+h', '+1.5h', '-1h', '+1m1h', '+8761h', '+1d']) expect(parseOffset(bad), bad).toBeNull();
    expect(parseOffset('+8760h')).toBe(8760 * 3_600_000);
  });
  it('tells offsets from absolute times', () => {
    expect(parseScheduleValue('+2h')).toEqual({ kind: 'offset', ms: 7_200_000 });
    expect(parseScheduleValue('2026-12-25T12:00:00Z')).toEqual({ kind: 'absolute', at: Date.UTC(2026, 11, 25, 12) });
    expect(parseScheduleValue('noon')).toBeNull();
  });
});
