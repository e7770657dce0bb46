import { describe, expect, it } from 'vitest';
import type { Platform, SandboxFaults } from '@socialpub/core';
import { listSandboxPosts } from '../../src/platforms/sandbox';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { createAdapters } from '../../src/platforms/registry';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();

type Target = { id: string; platform: string; status: string; attempts: number; next_attempt_at: number | null; error_code: string | null; error_message: string | null; post_id: string | null };
const targets = (w: SandboxDaemon) => w.db.prepare('SELECT id, platform, status, attempts, next_attempt_at, error_code, error_message, post_id FROM targets ORDER BY platform').all() as Target[];
const attempts = (w: SandboxDaemon) => w.db.prepare('SELECT target_id, number, outcome, error_code, error_message FROM attempts ORDER BY id').all();
const settled = (w: SandboxDaemon) => () => targets(w).every((t) => ['published', 'failed', 'needs_review'].includes(t.status));

async function run(platform: Platform, faults: SandboxFaults, steps = 120, step = 1000) {
  const adapters = createAdapters();
  adapters.set('twitter', createTwitterAdapter({ requestTimeoutMs: 1_000 }));
  const w = await startSandboxDaemon(defer, { platforms: [platform], adapters });
  const put = await w.call('PUT', '/sandbox/faults', { faults });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const pub = await w.call('POST', '/content/publish', { caption: `Faults on ${platform}`, platforms: [platform], scheduled_for: new Date(w.clock.now()).toISOString() });
  expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);
  await advanceUntil(w.clock, () => targets(w).some((t) => t.attempts >= 1 && t.status !== 'publishing'), steps, step);
  return w;
}

describe('explore', () => {
  for (const [platform, faults, step] of [
    ['threads', { all: { server_error: 1 } }, 1000],
    ['facebook', { all: { server_error: 1 } }, 1000],
    ['threads', { all: { reset: 1 } }, 1000],
    ['facebook', { all: { reset: 1 } }, 1000],
    ['twitter', { all: { timeout: 1 } }, 1000],
    ['threads', { all: { rate_limited: 1 } }, 60_000],
    ['facebook', { all: { rate_limited: 1 } }, 60_000],
  ] as [Platform, SandboxFaults, number][]) {
    it(`${platform} ${JSON.stringify(faults)}`, async () => {
      const w = await run(platform, faults, 120, step);
      console.log(platform, JSON.stringify(faults), 'FIRST', JSON.stringify(targets(w)), JSON.stringify(attempts(w)), w.clock.now());
      await w.call('DELETE', '/sandbox/faults');
      await advanceUntil(w.clock, settled(w), 300, step);
      console.log(platform, 'END', JSON.stringify(targets(w)), JSON.stringify(attempts(w)).slice(0, 600), listSandboxPosts(w.db).length, w.clock.now());
    }, 120_000);
  }
});
