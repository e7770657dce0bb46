import { Temporal } from './temporal';

const zoned = (at: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone);

/** The local wall time of an instant in a zone, without offset: `2026-12-25T10:00:00`. */
export function wallTimeOf(at: number, zone: string): string {
  return zoned(at, zone).toPlainDateTime().toString({ smallestUnit: 'second' });
}

/** The instant as local time with its offset: `2026-12-25T10:00:00+01:00`. */
export function zonedIsoOf(at: number, zone: string): string {
  return zoned(at, zone).toString({ smallestUnit: 'second', timeZoneName: 'never' });
}

/** The offset of a zone at an instant: `+01:00`. */
export function offsetOf(at: number, zone: string): string {
  return zoned(at, zone).offset;
}
