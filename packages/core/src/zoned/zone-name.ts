import { Temporal } from './temporal';
import { isZoneName } from './time-shape';

/**
 * The canonical spelling of an IANA time zone name (`europe/berlin` -> `Europe/Berlin`), or
 * null when the name is unknown. Fixed offsets are refused: a zone must carry its DST rules.
 */
export function canonicalZone(name: string): string | null {
  if (!isZoneName(name)) return null;
  try {
    return new Temporal.ZonedDateTime(0n, name).timeZoneId;
  } catch {
    return null;
  }
}
