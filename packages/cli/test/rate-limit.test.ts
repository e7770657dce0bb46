import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon({ rateLimits: true });
});
afterAll(async () => {
  await t.stop();
});

describe('rate limits', () => {
  it('exits 6 with the wait the daemon asks for once the minute of validations is used', async () => {
    for (let i = 0; i < 10; i++) expect((await t.run('whoami --json')).code).toBe(0);
    // Retry-After is about a minute, longer than the CLI waits by itself: it reports instead.
    const json = await t.run('whoami --json');
    expect(json.code).toBe(6);
    const error = json.json<{ error: { code: string; retry_after: number; hint: string; exit_code: number } }>().error;
    expect(error.code).toBe('rate_limited');
    expect(error.retry_after).toBeGreaterThan(10);
    expect(error.retry_after).toBeLessThanOrEqual(60);
    expect(error.hint).toBe(`try again in ${error.retry_after} s`);
    const human = await t.run('whoami');
    expect(human.code).toBe(6);
    expect(human.stderr).toMatch(/hint: try again in \d+ s/);
  });
});
