import { useState } from 'preact/hooks';
import { nextDay, startOfDayIn } from './time';

/** The filters a list screen keeps in its address (so a reload, a bookmark or a shared link shows the same list). */
export const FILTER_KEYS = ['q', 'platform', 'source', 'from', 'to', 'status'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filters = Record<FilterKey, string>;

function read(): Filters {
  const p = new URLSearchParams(location.search);
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, p.get(k) ?? ''])) as Filters;
}

/** The screen's filters, read from the address and written back to it (replaceState: no history entry per keystroke). */
export function useUrlFilters(): [Filters, (key: FilterKey, value: string) => void, () => void] {
  const [filters, setFilters] = useState<Filters>(read);
  const write = (next: Filters) => {
    const p = new URLSearchParams(location.search);
    for (const k of FILTER_KEYS) {
      if (next[k]) p.set(k, next[k]);
      else p.delete(k);
    }
    const search = p.toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
    setFilters(next);
  };
  return [filters, (key, value) => write({ ...filters, [key]: value }), () => write(Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as Filters)];
}

/**
 * GET /content/scheduled's query for the filters: dates are whole local days in the person's
 * zone (to is inclusive); the "failed" status is any post with a failed target
 * (target_status=failed), so a partly failed post is found too.
 */
export function filterQuery(f: Filters, zone: string): Record<string, string | undefined> {
  const q: Record<string, string | undefined> = {
    q: f.q.trim() || undefined,
    platform: f.platform || undefined,
    source: f.source || undefined,
    from: f.from ? startOfDayIn(f.from, zone) : undefined,
    to: f.to ? startOfDayIn(nextDay(f.to), zone) : undefined,
  };
  if (f.status === 'failed') q.target_status = 'failed';
  else if (f.status && f.status !== 'all') q.status = f.status;
  return q;
}
