import type { PlatformAdapter, PublishContext } from '../../src/platforms/adapter';
import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../../src/util/clock';
import { T0, useWorlds } from '../scheduler/harness';
import type { PublisherOptions } from '../../src/publisher/publisher';

const world = useWorlds();

/** A world whose twitter adapter prepares with `prepare` and publishes what the checkpoint says was made. */
function withPreparingAdapter(prepare: (ctx: PublishContext) => Promise<void>, publisher: Partial<PublisherOptions> = {}) {
  const prepared: { id: string; at: number; caption: string }[] = [];
  const published: { id: string; made: unknown }[] = [];
  const adapter: PlatformAdapter = {
    platform: 'twitter',
    validate: () => [],
    prepare: async (ctx) => {
      prepared.push({ id: ctx.target.id, at: ctx.clock.now(), caption: ctx.target.caption });
      await prepare(ctx);
    },
    publish: async (ctx) => {
      published.push({ id: ctx.target.id, made: ctx.checkpoint.data.made ?? null });
      return { postId: `p_${ctx.target.id}`, postUrl: null };
    },
    reconcile: async () => ({ state: 'unknown', reason: 'not used' }),
  };
  const w = world({ publisher: { adapters: new Map([['twitter', adapter]]), ...publisher } });
  return { w, prepared, published };
}

const checkpointOf = (w: ReturnType<typeof world>, id: string) => JSON.parse(w.db.prepare('SELECT checkpoint FROM targets WHERE id = ?').pluck().get(id) as string) as Record<string, unknown>;
const updatedAt = (w: ReturnType<typeof world>, id: string) => w.db.prepare('SELECT updated_at FROM targets WHERE id = ?').pluck().get(id) as number;

describe('the preparer', () => {
  it('prepares a target once it is a minute from due, and the attempt at the due time takes up what was made', async () => {
    const { w, prepared, published } = withPreparingAdapter((ctx) => ctx.checkpoint.save({ made: 'container_1' }));
    const id = w.add({ due: T0 + 120_000, caption: 'ahead' });
    const before = updatedAt(w, id);
    await w.start();
    await w.advance(58_000);
    expect(prepared).toEqual([]);
    await w.advance(3_000);
    expect(prepared).toEqual([{ id, at: T0 + 60_000, caption: 'ahead' }]);
    // Saved while still scheduled, and nothing the user sees changed.
    expect(w.row(id).status).toBe('scheduled');
    expect(updatedAt(w, id)).toBe(before);
    expect(checkpointOf(w, id)).toEqual({ made: 'container_1' });

    await w.advance(60_000);
    expect(published).toEqual([{ id, made: 'container_1' }]);
    expect(w.row(id)).toMatchObject({ status: 'published', post_id: `p_${id}` });
    expect(prepared).toHaveLength(1);
  });

  it('does not prepare a post with media, a retry, a target already due, or anything when turned off', async () => {
    const { w, prepared } = withPreparingAdapter((ctx) => ctx.checkpoint.save({ made: 'x' }));
    w.add({ due: T0 + 30_000, caption: 'with a picture', mediaUrls: ['https://cdn.example.com/a.jpg'] });
    w.add({ due: T0 - 1_000, caption: 'overdue' });
    const retry = w.add({ due: T0 + 20_000, caption: 'tried once' });
    w.db.prepare('UPDATE targets SET attempts = 1 WHERE id = ?').run(retry);
    await w.start();
    await w.advance(31_000);
    expect(prepared).toEqual([]);

    const off = withPreparingAdapter((ctx) => ctx.checkpoint.save({ made: 'x' }), { prepareAheadMs: 0 });
    const id = off.w.add({ due: T0 + 30_000, caption: 'plain' });
    await off.w.start();
    await off.w.advance(31_000);
    expect(off.prepared).toEqual([]);
    expect(off.published).toEqual([{ id, made: null }]);
  });

  it('prepares a target it is told of that falls due at a time its scan has already read (a burst due in the same second)', async () => {
    const { w, prepared } = withPreparingAdapter((ctx) => ctx.checkpoint.save({ made: ctx.target.id }));
    const first = w.add({ due: T0 + 30_000, caption: 'first', id: 'tgt_m' });
    await w.start();
    await w.advance(1_000);
    expect(prepared.map((p) => p.id)).toEqual([first]);
    // Same due time, an id before the scan's mark: only the change hook (POST /content/publish) brings it.
    const later = w.add({ due: T0 + 30_000, caption: 'later', id: 'tgt_a' });
    await w.advance(2_000);
    expect(prepared.map((p) => p.id)).toEqual([first]);
    w.publisher.targetsChanged([later]);
    await w.advance(1_000);
    expect(prepared.map((p) => p.id)).toEqual([first, later]);
    expect(checkpointOf(w, later)).toEqual({ made: later });
  });

  it('holds the attempt while a preparation is in flight, up to 5 s, and refuses a preparation that ends after the claim', async () => {
    // A target due 2 s from now is prepared at once. A preparation of 3 s ends while the
    // attempt waits for it; one of 20 s does not: the attempt goes on without it after 5 s,
    // and the preparation's late save is refused (the target is no longer scheduled).
    const run = async (takesMs: number) => {
      const r = withPreparingAdapter(async (ctx) => {
        await ctx.clock.sleep(takesMs, ctx.signal);
        await ctx.checkpoint.save({ made: `after_${takesMs}` });
      });
      const id = r.w.add({ due: T0 + 2_000, caption: 'soon' });
      r.w.publisher.start();
      await r.w.scheduler.start();
      const publishedAt: number[] = [];
      // Second by second, without waiting for the attempt to end (it waits on this clock).
      for (let i = 0; i < 30; i++) {
        await r.w.clock.advance(1_000);
        for (let j = 0; j < 5; j++) await flushMicrotasks(20);
        if (r.published.length > 0 && publishedAt.length === 0) publishedAt.push(r.w.clock.now());
      }
      await r.w.settle();
      return { ...r, id, publishedAt: publishedAt[0] };
    };
    const quick = await run(3_000);
    expect(quick.prepared.map((p) => p.at)).toEqual([T0]);
    expect(quick.published).toEqual([{ id: quick.id, made: 'after_3000' }]);
    expect(quick.publishedAt).toBe(T0 + 3_000);

    const slow = await run(20_000);
    expect(slow.published).toEqual([{ id: slow.id, made: null }]);
    expect(slow.publishedAt).toBe(T0 + 7_000);
    expect(slow.w.row(slow.id).status).toBe('published');
    expect(checkpointOf(slow.w, slow.id)).toEqual({});
  });
});
