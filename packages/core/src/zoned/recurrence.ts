import { RRuleTemporal } from 'rrule-temporal';
import { MAX_SERIES_OCCURRENCES } from './limits';
import { checkRruleSyntax } from './rrule-syntax';
import { Temporal } from './temporal';


export interface SeriesRule {
  /** RFC 5545 RRULE, without DTSTART (the series starts at the post's scheduled_for). */
  rrule: string;
  /** Number of occurrences (instead of COUNT in the rule). */
  count?: number | null;
  /** Last possible occurrence, epoch ms (instead of UNTIL in the rule). */
  until?: number | null;
}

export type SeriesExpansion =
  | { ok: true; rule: string; occurrences: number[] }
  | { ok: false; path: 'recurrence.rrule' | 'recurrence.count' | 'recurrence.until'; message: string };

/**
 * Every occurrence of a series, epoch ms in time order: the rule's matches from `start` on,
 * in `zone`, each at the same local wall time whatever the offset that day (the rule is
 * expanded in local time by rrule-temporal). `start` itself counts when it matches the
 * rule. An occurrence whose wall time a spring-forward change skips is left out (RFC 5545).
 * The series must end (COUNT or UNTIL) within MAX_SERIES_OCCURRENCES.
 */
export function expandSeries(input: SeriesRule, start: number, zone: string): SeriesExpansion {
  const syntax = checkRruleSyntax(input.rrule);
  if (typeof syntax === 'string') return { ok: false, path: 'recurrence.rrule', message: syntax };
  const count = input.count ?? null;
  const until = input.until ?? null;
  const ruleCount = syntax.parts.has('COUNT'), ruleUntil = syntax.parts.has('UNTIL');
  if ((count !== null || ruleCount) && (until !== null || ruleUntil)) {
    return { ok: false, path: 'recurrence.until', message: 'give count or until, not both' };
  }
  if ((count !== null && ruleCount) || (until !== null && ruleUntil)) {
    return { ok: false, path: count !== null ? 'recurrence.count' : 'recurrence.until', message: 'is given both in the rrule and as a field; give it once' };
  }
  if (count === null && until === null && !ruleCount && !ruleUntil) {
    return { ok: false, path: 'recurrence.count', message: `a series must end: give count or until (at most ${MAX_SERIES_OCCURRENCES} posts)` };
  }
  if (count !== null && count > MAX_SERIES_OCCURRENCES) {
    return { ok: false, path: 'recurrence.count', message: `must be at most ${MAX_SERIES_OCCURRENCES}` };
  }
  if (Number(syntax.parts.get('COUNT') ?? 0) > MAX_SERIES_OCCURRENCES) {
    return { ok: false, path: 'recurrence.rrule', message: `COUNT must be at most ${MAX_SERIES_OCCURRENCES}` };
  }
  if (until !== null && until < start) return { ok: false, path: 'recurrence.until', message: 'is before the first occurrence (scheduled_for)' };
  const dtstart = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(zone);
  let all: Temporal.ZonedDateTime[];
  try {
    const rule = new RRuleTemporal({
      rruleString: syntax.text,
      dtstart,
      tzid: zone,
      ...(count !== null ? { count } : {}),
      ...(until !== null ? { until: Temporal.Instant.fromEpochMilliseconds(until).toZonedDateTimeISO(zone) } : {}),
    });
    // One past the maximum is enough to know the series is too long.
    all = rule.all((_d, i) => i <= MAX_SERIES_OCCURRENCES) as unknown as Temporal.ZonedDateTime[];
  } catch (e) {
    return { ok: false, path: 'recurrence.rrule', message: `is not a valid RRULE: ${(e as Error).message}` };
  }
  if (all.length > MAX_SERIES_OCCURRENCES) {
    return { ok: false, path: 'recurrence.rrule', message: `would create more than ${MAX_SERIES_OCCURRENCES} posts; end it sooner (COUNT or UNTIL)` };
  }
  if (all.length === 0) return { ok: false, path: 'recurrence.rrule', message: 'yields no occurrence from scheduled_for on' };
  return { ok: true, rule: syntax.text, occurrences: all.map((z) => z.epochMilliseconds) };
}
