import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '@socialpub/daemon';
import { useTestDaemon } from './daemon-harness';

/**
 * Real time shifted so the test starts half a second into a rate window (windows are
 * aligned to the minute): the eleven calls cannot straddle a window boundary however
 * slow the machine is, and the Retry-After stays well above the CLI's own 10 s wait.
 */
function clockAtStartOfMinute(): Clock {
  const now = Date.now();
  const offset = Math.ceil(now / 60_000) * 60_000 + 500 - now;
  return { now: () => Date.now() + offset, sleep: systemClock.sleep };
}

const t = useTestDaemon({ rateLimits: true, clock: clockAtStartOfMinute() });

describe('rate limits', () => {
  it('exits 6 with the wait the daemon asks for once the minute of validations is used', async () => {
    for (let i = 0; i < 10; i++) expect((await t.run('whoami --json')).code).toBe(0);
    // Retry-After is about a minute, longer than the CLI waits by itself: it reports instead.
    const json = await t.run('whoami --json');
    expect(json.code).toBe(6);
    const error = json.json<{ error: { code: string; message: string; retry_after: number; hint?: string; exit_code: number } }>().error;
    expect(error.code).toBe('rate_limited');
    expect(error.retry_after).toBeGreaterThan(10);
    expect(error.retry_after).toBeLessThanOrEqual(60);
    // What ran out, what to do and when, local time included (issue 35), as the SDK and MCP say it.
    const wait = error.retry_after === 60 ? '1 min' : `${error.retry_after} s`;
    expect(error.message).toMatch(new RegExp(`^rate limited \\(authentication: 10 a minute\\); try again in ${wait} \\(at \\d\\d:\\d\\d\\)$`));
    expect(error.hint).toBeUndefined();
    const human = await t.run('whoami');
    expect(human.code).toBe(6);
    expect(human.stderr).toMatch(/^error: rate limited \(authentication: 10 a minute\); try again in (\d+ s|1 min) \(at \d\d:\d\d\)\n$/);
  });
});
