import { describe, expect, it } from 'vitest';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { T0, useWorlds, type World } from '../scheduler/harness';

const world = useWorlds();

/** Leaves a target as a crashed daemon would: publishing, under a lease held by `owner`. */
function leftPublishing(w: World, id: string, owner: string, leaseUntil: number, checkpoint: Record<string, unknown> = {}) {
  w.db
    .prepare("UPDATE targets SET status = 'publishing', attempts = 1, attempt_started_at = ?, lease_owner = ?, lease_until = ?, checkpoint = ? WHERE id = ?")
    .run(T0 - 5_000, owner, leaseUntil, JSON.stringify(checkpoint), id);
  w.db.prepare('INSERT INTO attempts (target_id, number, started_at) VALUES (?, 1, ?)').run(id, T0 - 5_000);
}

const DEAD = `${(await import('node:os')).hostname()}/999999999/abc`;
const ELSEWHERE = 'other-host.example/1234/abc';

describe('recovery', () => {
  it('stores the post when reconcile finds the interrupted attempt published, without posting again', async () => {
    const w = world();
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, DEAD, T0 + 60_000, { step: 'posting' });
    w.ledger.append({ targetId: id, platform: 'twitter', postId: 'remote_1', attempt: 1, caption: 'x', mediaCount: 0, at: T0 - 4_000 });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'published', post_id: 'remote_1', published_at: T0 - 4_000, lease_owner: null });
    expect(w.attempts(id).map((a) => a.outcome)).toEqual(['reconciled_published']);
    expect(w.adapter('twitter').calls).toHaveLength(0);
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('puts a provably unpublished target back to scheduled and publishes it once', async () => {
    const w = world();
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, DEAD, T0 + 60_000);
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'published', attempts: 2 });
    expect(w.attempts(id).map((a) => a.outcome)).toEqual(['reconciled_not_published', 'published']);
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('puts a target whose outcome cannot be established in needs_review', async () => {
    const w = world();
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, DEAD, T0 + 60_000);
    w.adapter('twitter').injectReconcile({ kind: 'unknown' });
    await w.start();
    await w.advance(3_600_000);
    expect(w.row(id)).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(w.ledger.entries()).toHaveLength(0);
  });

  it('puts a target in needs_review when reconcile itself breaks', async () => {
    const w = world();
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, DEAD, T0 + 60_000);
    w.adapter('twitter').injectReconcile({ kind: 'throw' });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'needs_review', error_code: 'outcome_unknown' });
    expect(w.row(id).error_message).toContain('lookup crashed');
  });

  it('looks again later when reconcile meets a transient error', async () => {
    const w = world({ publisher: { sweepMs: 1_000 } });
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, DEAD, T0 + 60_000);
    w.ledger.append({ targetId: id, platform: 'twitter', postId: 'remote_2', attempt: 1, caption: 'x', mediaCount: 0, at: T0 - 4_000 });
    w.adapter('twitter').injectReconcile({ kind: 'retryable' });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'publishing', lease_until: T0 + 30_000 });
    await w.advance(31_000);
    expect(w.row(id)).toMatchObject({ status: 'published', post_id: 'remote_2' });
    expect(w.adapter('twitter').calls).toHaveLength(0);
  });

  it('waits for the lease of an owner it cannot see to run out before reconciling', async () => {
    const w = world({ publisher: { sweepMs: 1_000 } });
    const id = w.add({ due: T0 - 10_000 });
    leftPublishing(w, id, ELSEWHERE, T0 + 20_000);
    await w.start();
    await w.advance(19_000);
    expect(w.row(id)).toMatchObject({ status: 'publishing', lease_owner: ELSEWHERE });
    await w.advance(2_000);
    expect(w.row(id)).toMatchObject({ status: 'published', attempts: 2 });
    expect(w.ledger.entries()).toHaveLength(1);
  });

  it('reconciles after a crash mid-flight instead of posting again', async () => {
    const clock = new ManualClock(T0);
    const first = world({ clock });
    const id = first.add({ due: T0 + 1_000 });
    first.adapter('twitter').inject({ kind: 'hang_after_post' });
    await first.start();
    await first.clock.advance(1_000);
    await flushMicrotasks();
    expect(first.row(id).status).toBe('publishing');
    // The process dies: its loops stop and the target stays publishing under its lease.
    await first.scheduler.stop();
    await first.publisher.stop(0);
    expect(first.row(id)).toMatchObject({ status: 'publishing', lease_owner: first.publisher.owner });

    const second = world({ clock, db: first.db, ledger: first.ledger });
    await second.start();
    expect(second.row(id)).toMatchObject({ status: 'published', post_id: `test_${id}_1` });
    expect(second.ledger.entries()).toHaveLength(1);
    expect(second.adapter('twitter').calls).toHaveLength(0);
  });

  it('renews the lease of a long attempt so nobody reconciles it while it runs', async () => {
    const w = world({ latencyMs: [600_000, 600_000], publisher: { leaseMs: 60_000, sweepMs: 1_000 } });
    const id = w.add({ due: T0 });
    w.publisher.start();
    await w.scheduler.start();
    for (let i = 0; i < 9; i++) {
      await w.clock.advance(60_000);
      expect(w.row(id)).toMatchObject({ status: 'publishing', lease_owner: w.publisher.owner });
      expect(w.row(id).lease_until as number).toBeGreaterThan(w.clock.now());
    }
    await w.clock.advance(60_000);
    await w.settle();
    expect(w.row(id).status).toBe('published');
    expect(w.attempts(id).map((a) => a.outcome)).toEqual(['published']);
  });

  it('lets attempts in flight finish within the shutdown deadline and leaves the rest to recovery', async () => {
    const clock = new ManualClock(T0);
    const first = world({ clock, latencyMs: [2_000, 2_000] });
    const quick = first.add({ due: T0, platform: 'twitter' });
    const slow = first.add({ due: T0, platform: 'youtube' });
    first.adapter('youtube').inject({ kind: 'hang_after_post' });
    first.publisher.start();
    await first.scheduler.start();
    await flushMicrotasks();
    await first.scheduler.stop();
    const stopping = first.publisher.stop(5_000);
    await clock.advance(5_000);
    await stopping;
    expect(first.row(quick).status).toBe('published');
    expect(first.row(slow)).toMatchObject({ status: 'publishing', lease_owner: first.publisher.owner });

    const second = world({ clock, db: first.db, ledger: first.ledger });
    await second.start();
    expect(second.row(slow)).toMatchObject({ status: 'published', post_id: `test_${slow}_1` });
    expect(second.ledger.entries().map((e) => e.targetId).sort()).toEqual([quick, slow].sort());
  });

  it('stops claiming at shutdown: a target due afterwards stays scheduled for the next start', async () => {
    const clock = new ManualClock(T0);
    const first = world({ clock });
    const id = first.add({ due: T0 + 1_000 });
    await first.start();
    await first.scheduler.stop();
    await first.publisher.stop();
    await clock.advance(10_000);
    expect(first.row(id).status).toBe('scheduled');
    const second = world({ clock, db: first.db, ledger: first.ledger });
    await second.start();
    expect(second.row(id)).toMatchObject({ status: 'published', attempt_started_at: T0 + 10_000 });
  });
});
