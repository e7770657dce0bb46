import { systemClock, type Clock } from '@socialpub/daemon';

/**
 * "Now" for the dashboard's browser tests: the instant in SOCIALPUB_TEST_NOW (ISO 8601), or a
 * fixed default, so that no test depends on the day it runs. Time flows from it at the real
 * rate: the daemon is given `testClock`, and every browser context a Playwright clock
 * installed at the same instant (support/browser.ts), so the page, the daemon and the test
 * agree on the date. CI runs the dashboard suites again at a month's last day, across a DST
 * change and on New Year's Eve (scripts/dashboard-dates.sh).
 */
export const TEST_NOW = parseTestNow(process.env.SOCIALPUB_TEST_NOW);

function parseTestNow(value: string | undefined): number {
  // A Wednesday in June, mid-month, mid-morning in Berlin: far from any edge.
  const ms = Date.parse(value ?? '2026-06-10T08:00:00Z');
  if (Number.isNaN(ms)) throw new Error(`SOCIALPUB_TEST_NOW=${value}: not an ISO 8601 instant`);
  return ms;
}

const startedAt = Date.now();

/** The tests' clock: TEST_NOW plus the real time elapsed since this module was loaded. */
export const testClock: Clock = {
  now: () => TEST_NOW + (Date.now() - startedAt),
  sleep: (ms, signal) => systemClock.sleep(ms, signal),
};

/** The tests' current instant as a Date. */
export const testNow = (): Date => new Date(testClock.now());
