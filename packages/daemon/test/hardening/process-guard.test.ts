/** Issue 28, item 1: what nothing caught is logged, and the daemon process keeps running. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./guard-child.ts', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', CHILD, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe('the process guard', () => {
  it('logs an unhandled error event, a throw in a timer and an unhandled rejection, and the process lives on', () => {
    const r = run();
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('still serving');
    const logged = lines.slice(0, -1).map((l) => JSON.parse(l) as { level: string; msg: string; error: string });
    expect(logged.map((l) => [l.level, l.msg, l.error])).toEqual([
      ['error', 'uncaught exception; the daemon keeps serving', 'connect ENETUNREACH 255.255.255.255:443'],
      ['error', 'uncaught exception; the daemon keeps serving', 'thrown in a timer'],
      ['error', 'unhandled rejection; the daemon keeps serving', 'rejected and never handled'],
    ]);
  });

  it('without it, the first of them ends the process (what the probe saw)', () => {
    const r = run('bare');
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('still serving');
    expect(r.stderr).toContain('ENETUNREACH');
  });
});
