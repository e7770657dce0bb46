import { useMemo, useState } from 'preact/hooks';

/** "GMT+9", "GMT-3:30", "GMT" now in `zone` (Intl's short offset). */
function offsetOf(zone: string, at: Date): string {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** The zones this browser knows (about 420), UTC first. */
function allZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...known, current])];
}

/**
 * A time zone found by typing: a search field narrows the list to the zones whose name,
 * city or current offset contains every word typed ("tokyo", "new york", "gmt+9"), and the
 * list below (a listbox) picks one. The chosen zone stays listed whatever the search.
 */
export function ZonePicker({ value, onChange, label = 'Time zone' }: { value: string; onChange(zone: string): void; label?: string }) {
  const [query, setQuery] = useState('');
  const zones = useMemo(() => {
    const now = new Date();
    return allZones(value).map((z) => {
      const offset = offsetOf(z, now);
      return { zone: z, text: `${z.replace(/_/g, ' ')} (${offset})`, haystack: `${z} ${z.replace(/_/g, ' ')} ${offset}`.toLowerCase() };
    });
  }, []);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = zones.filter((z) => words.every((w) => z.haystack.includes(w)));
  const matches = found.some((z) => z.zone === value) ? found : [...zones.filter((z) => z.zone === value), ...found];
  return (
    <div class="zone-picker">
      <label class="column">
        Search time zones
        <input type="search" value={query} placeholder="a city, a region or GMT+9" onInput={(e) => setQuery(e.currentTarget.value)} />
      </label>
      <label class="column">
        {label}
        <select size={Math.min(8, Math.max(2, matches.length))} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          {matches.map((z) => (
            <option key={z.zone} value={z.zone}>
              {z.text}
            </option>
          ))}
        </select>
      </label>
      <p class="muted" aria-live="polite">
        {words.length ? `${found.length} of ${zones.length} zones match` : `${zones.length} zones`}
      </p>
    </div>
  );
}
