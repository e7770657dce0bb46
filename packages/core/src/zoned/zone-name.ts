import { Temporal } from './temporal';

/** An IANA zone name (Europe/Berlin, UTC); offsets like +02:00 are not zones here. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The canonical spelling of an IANA time zone name (`europe/berlin` -> `Europe/Berlin`), or
 * null when the name is unknown. Fixed offsets are refused: a zone must carry its DST rules.
 */
export function canonicalZone(name: string): string | null {
  if (!ZONE_NAME.test(name) || /^[+-]/.test(name)) return null;
  try {
    return new Temporal.ZonedDateTime(0n, name).timeZoneId;
  } catch {
    return null;
  }
}

export const UNKNOWN_ZONE_MESSAGE = 'is not a known IANA time zone name (e.g. Europe/Berlin, America/New_York, UTC)';
