import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tzScenario } from './tz-scenario';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCENARIO = fileURLToPath(new URL('./tz-scenario.ts', import.meta.url));

/** The scenario in a fresh Node process whose TZ is `tz` (undefined: TZ unset). */
async function runUnder(tz: string | undefined): Promise<{ tz: string | null; offset: number; out: unknown[] }> {
  const env = { ...process.env };
  if (tz === undefined) delete env.TZ;
  else env.TZ = tz;
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', SCENARIO], { cwd: ROOT, env });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as { tz: string | null; offset: number; out: unknown[] };
}

describe('the daemon does not depend on the machine time zone', () => {
  it('answers the same under TZ=UTC, TZ=America/Los_Angeles and TZ unset', async () => {
    const children = Promise.all([runUnder('America/Los_Angeles'), runUnder(undefined)]);
    // TZ=UTC in this process (Node applies a change of process.env.TZ at once), the other two in fresh processes.
    const before = process.env.TZ;
    process.env.TZ = 'UTC';
    let here: unknown[];
    try {
      expect(new Date(Date.UTC(2026, 6, 1)).getTimezoneOffset()).toBe(0);
      here = await tzScenario();
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
    const [la, unset] = await children;
    // The child processes really ran in those zones (Los Angeles is UTC-7 on 1 July).
    expect([la.tz, la.offset, unset.tz]).toEqual(['America/Los_Angeles', 420, null]);
    expect(la.out).toEqual(here);
    expect(unset.out).toEqual(here);
    // And the scenario saw what it should: the gap refused, the overlap resolved to EDT, the queue across DST.
    expect(here[1]).toMatchObject([400, { error: { details: [{ gap: { from: '02:00', to: '03:00' } }] } }]);
    expect(here[2]).toMatchObject([200, { scheduled_for: '2026-11-01T05:30:00.000Z' }]);
    expect(here[8]).toMatchObject([200, { scheduled_local: '2026-03-02T09:00:00', scheduled_for: '2026-03-02T08:00:00.000Z' }]);
  }, 60_000);
});
