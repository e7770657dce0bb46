import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { createTestAdapters, FileLedger } from '../support/test-adapter';
import { ManualClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { T0 } from '../scheduler/harness';
import { useTempDirs } from '../support/temp-dirs';
import { testDatabaseConfig } from '../support/store-dialects';

const tempDir = useTempDirs();

describe('the daemon with the scheduler and publisher wired in', () => {
  it('publishes now, at a scheduled time, never when cancelled, at once when approved late, and reports on /healthz', async () => {
    const dir = tempDir('sp-wiring-');
    // On PostgreSQL in the postgres project (the same test, the database in a schema of its own).
    const database = testDatabaseConfig(dir);
    const admin = openAdmin(dir, { databaseUrl: database.databaseUrl ?? null });
    const { api_key } = admin.createKey({ email: 'me@example.com' });
    admin.addSandboxConnection('twitter', { email: 'me@example.com' });
    admin.close();
    const ledgerPath = join(dir, 'ledger.jsonl');
    const clock = new ManualClock(T0);
    const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, ...database }, {}), { clock, logger: createLogger({ level: 'silent' }), adapters: createTestAdapters(new FileLedger(ledgerPath)) });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${daemon.url}/api/agents/v1${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${api_key}`, 'Content-Type': 'application/json', ...init.headers },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const statusOf = async (jobId: string) => ((await api(`/content/scheduled?job_id=${jobId}`)).body.post as { status: string }).status;
    const until = async (jobId: string, want: string) => {
      // The publish runs on real I/O (the HTTP call, the database): up to 10 s of real time, not a count of turns.
      const end = performance.now() + 10_000;
      while ((await statusOf(jobId)) !== want && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
      return statusOf(jobId);
    };
    try {
      const now = await api('/content/publish', { method: 'POST', body: JSON.stringify({ caption: 'now', platforms: ['twitter'], publish_now: true }) });
      expect(now.status).toBe(200);
      expect(await until(now.body.job_id as string, 'published')).toBe('published');

      const later = await api('/content/publish', {
        method: 'POST',
        body: JSON.stringify({ caption: 'later', platforms: ['twitter'], scheduled_for: new Date(T0 + 3_600_000).toISOString() }),
      });
      expect(later.status).toBe(200);
      await clock.advance(3_600_000 - 1);
      expect(await statusOf(later.body.job_id as string)).toBe('scheduled');
      await clock.advance(1);
      expect(await until(later.body.job_id as string, 'published')).toBe('published');

      expect(FileLedger.read(ledgerPath).map((e) => [e.caption, e.at])).toEqual([
        ['now', T0],
        ['later', T0 + 3_600_000],
      ]);
      const health = (await (await fetch(`${daemon.url}/healthz`)).json()) as {
        scheduler: { running: boolean; last_tick: string | null; stalled: boolean };
        targets: Record<string, number>;
      };
      expect(health.scheduler).toMatchObject({ running: true, stalled: false, last_tick: new Date(T0 + 3_600_000).toISOString() });
      expect(health.targets.published).toBe(2);

      // Cancelled before its time: never goes out.
      const cancelled = await api('/content/publish', {
        method: 'POST',
        body: JSON.stringify({ caption: 'cancelled', platforms: ['twitter'], scheduled_for: new Date(T0 + 7_200_000).toISOString() }),
      });
      expect((await api(`/content/scheduled?job_id=${cancelled.body.job_id as string}`, { method: 'DELETE' })).status).toBe(200);
      // Held for approval past its time, then approved: goes out at once.
      const held = await api('/content/publish', {
        method: 'POST',
        body: JSON.stringify({ caption: 'approved late', platforms: ['twitter'], scheduled_for: new Date(T0 + 5_400_000).toISOString(), require_approval: true }),
      });
      expect(held.body.status).toBe('pending_approval');
      await clock.advance(2 * 3_600_000);
      expect(await statusOf(held.body.job_id as string)).toBe('pending_approval');
      expect((await api(`/content/scheduled/approve?job_id=${held.body.job_id as string}`, { method: 'POST' })).status).toBe(200);
      expect(await until(held.body.job_id as string, 'published')).toBe('published');
      expect(await statusOf(cancelled.body.job_id as string)).toBe('cancelled');
      expect(FileLedger.read(ledgerPath).map((e) => [e.caption, e.at])).toEqual([
        ['now', T0],
        ['later', T0 + 3_600_000],
        ['approved late', T0 + 3 * 3_600_000],
      ]);
    } finally {
      await daemon.close();
    }
  });
});
