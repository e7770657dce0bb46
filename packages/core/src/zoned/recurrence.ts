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
 * How far the expansion of one rule may search, so that no rule holds the event loop
 * (issue 28: a rule whose BYSETPOS never matched searched 10,000 years for 25 s). A series
 * of at most 500 posts that is meant to be kept finds them well within these: periods
 * searched (FREQ=DAILY 10 years, WEEKLY 20, MONTHLY 50, YEARLY 100, fewer periods with
 * INTERVAL) and dates weighed against the rule's parts in all.
 */
export const EXPANSION_LIMITS = {
  years: { DAILY: 10, WEEKLY: 20, MONTHLY: 50, YEARLY: 100 } as Record<string, number>,
  periodsPerYear: { DAILY: 366, WEEKLY: 53, MONTHLY: 12, YEARLY: 1 } as Record<string, number>,
  candidateDates: 1000,
};

function expansionBudget(parts: Map<string, string>): { maxIterations: number; maxCandidateEvaluations: number } {
  const freq = parts.get('FREQ') as string;
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const periods = Math.ceil(((EXPANSION_LIMITS.years[freq] as number) * (EXPANSION_LIMITS.periodsPerYear[freq] as number)) / interval);
  return { maxIterations: Math.max(periods, 1), maxCandidateEvaluations: EXPANSION_LIMITS.candidateDates };
}

function tooRare(parts: Map<string, string>): string {
  const freq = parts.get('FREQ') as string;
  return (
    `matches too rarely to expand: its occurrences are not found within ${EXPANSION_LIMITS.years[freq]} years of FREQ=${freq} periods ` +
    `or ${EXPANSION_LIMITS.candidateDates} dates weighed; check that its parts can match together (BYMONTHDAY=30 with BYMONTH=2 never does), ` +
    `use a coarser FREQ, or end the series sooner (COUNT or UNTIL)`
  );
}

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
      ...expansionBudget(syntax.parts),
      ...(count !== null ? { count } : {}),
      ...(until !== null ? { until: Temporal.Instant.fromEpochMilliseconds(until).toZonedDateTimeISO(zone) } : {}),
    });
    // One past the maximum is enough to know the series is too long.
    all = rule.all((_d, i) => i <= MAX_SERIES_OCCURRENCES) as unknown as Temporal.ZonedDateTime[];
  } catch (e) {
    const message = (e as Error).message;
    if (/^Maximum (iterations|candidate evaluations)/.test(message)) return { ok: false, path: 'recurrence.rrule', message: tooRare(syntax.parts) };
    return { ok: false, path: 'recurrence.rrule', message: `is not a valid RRULE: ${message}` };
  }
  if (all.length > MAX_SERIES_OCCURRENCES) {
    return { ok: false, path: 'recurrence.rrule', message: `would create more than ${MAX_SERIES_OCCURRENCES} posts; end it sooner (COUNT or UNTIL)` };
  }
  if (all.length === 0) return { ok: false, path: 'recurrence.rrule', message: 'yields no occurrence from scheduled_for on' };
  return { ok: true, rule: syntax.text, occurrences: all.map((z) => z.epochMilliseconds) };
}
