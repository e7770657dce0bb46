import type { LedgerEntry } from '../support/test-adapter';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS } from '@socialpub/core';
import { afterAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../support/test-adapter';
import { openDatabase } from '../../src/store/database';
import { testDatabaseConfig } from '../support/store-dialects';
import { insertTarget, seedUser } from '../scheduler/harness';
import { startDaemonChild } from './spawn-daemon';

const CHILD = fileURLToPath(new URL('./daemon-child.ts', import.meta.url));
const TARGETS = 2_000;
const SPAN_MS = 20_000;
const KILLS = 5;

const dir = mkdtempSync(join(tmpdir(), 'socialpub-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startChild(dbPath: string, ledgerPath: string) {
  return startDaemonChild(CHILD, [dbPath], { SOCIALPUB_TEST_ADAPTER: ledgerPath, SOCIALPUB_TEST_ADAPTER_LATENCY_MS: '5,40', SOCIALPUB_TEST_ADAPTER_AFTER_POST_MS: '0,30' });
}

/** Waits for real time: the moments of the kills are the point of this test. */
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('crash safety', () => {
  it('publishes 2,000 targets exactly once through 5 SIGKILLs and restarts', { timeout: 90_000 }, async () => {
    // On PostgreSQL (the postgres project) the same run over a schema of its own.
    const dbPath = testDatabaseConfig(dir).databaseUrl ?? join(dir, 'socialpub.db');
    const ledgerPath = join(dir, 'ledger.jsonl');
    const db = openDatabase(dbPath);
    const t0 = Date.now() + 2_000;
    seedUser(db, t0);
    db.transaction(() => {
      for (let i = 0; i < TARGETS; i++) {
        insertTarget(db, { due: t0 + Math.floor((i * SPAN_MS) / TARGETS), platform: PLATFORMS[i % PLATFORMS.length]!, id: `tgt_crash_${i}` });
      }
    })();

    // Kill moments spread over the whole span (sorted); one that passes while the daemon is
    // still starting is taken a random moment after it is ready instead.
    const planned = Array.from({ length: KILLS }, () => 500 + Math.floor(Math.random() * (SPAN_MS - 1_000))).sort((a, b) => a - b);
    const moments: number[] = [];
    let run = startChild(dbPath, ledgerPath);
    for (let k = 0; k < KILLS; k++) {
      await run.ready;
      await wait(Math.max(200 + Math.floor(Math.random() * 600), t0 + (planned[k] as number) - Date.now()));
      moments.push(Date.now() - t0);
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      run = startChild(dbPath, ledgerPath);
    }
    await run.ready;

    const open = db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck();
    const deadline = t0 + SPAN_MS + 25_000;
    while ((open.get() as number) > 0 && Date.now() < deadline) await wait(200);
    const settledAt = Date.now() - t0;
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    const counts = Object.fromEntries(
      (db.prepare('SELECT status, count(*) AS n FROM targets GROUP BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]),
    );
    const ledger: LedgerEntry[] = FileLedger.read(ledgerPath);
    const perTarget = new Map<string, LedgerEntry[]>();
    for (const e of ledger) perTarget.set(e.targetId, [...(perTarget.get(e.targetId) ?? []), e]);
    const doubles = [...perTarget.entries()].filter(([, es]) => es.length > 1).map(([id]) => id);
    const rows = db.prepare('SELECT id, status, due_at, post_id FROM targets').all() as { id: string; status: string; due_at: number; post_id: string | null }[];
    const mismatched = rows.filter((r) => r.status === 'published' && perTarget.get(r.id)?.[0]?.postId !== r.post_id);
    const early = rows.filter((r) => (perTarget.get(r.id)?.[0]?.at ?? Infinity) < r.due_at);
    const outcomes = Object.fromEntries(
      (db.prepare('SELECT outcome, count(*) AS n FROM attempts GROUP BY outcome').all() as { outcome: string; n: number }[]).map((r) => [r.outcome, r.n]),
    );
    db.close();

    const summary = { moments, settledAt, counts, outcomes, posts: ledger.length, doubles: doubles.length };
    console.log('crash test:', JSON.stringify(summary));
    expect(doubles).toEqual([]);
    expect((counts.published ?? 0) + (counts.needs_review ?? 0)).toBe(TARGETS);
    expect(counts.scheduled ?? 0).toBe(0);
    expect(counts.publishing ?? 0).toBe(0);
    expect(mismatched.map((r) => r.id)).toEqual([]);
    expect(early.map((r) => r.id)).toEqual([]);
    expect(moments).toHaveLength(KILLS);
  });
});
