import { describe, expect, it } from 'vitest';
import type { DelivererOptions } from '../../src/events/webhook-deliverer';
import type { PostRequest } from '../../src/events/webhook-post';
import { eventsWorld } from './world';

/** A receiver in the deliverer's place: holds every POST until released, and notes how many were in flight at each start. */
function heldPosts(answer: (n: number) => number = () => 200) {
  const started: { id: string; inFlight: number }[] = [];
  const held: (() => void)[] = [];
  let inFlight = 0;
  const post = (req: PostRequest) =>
    new Promise<number>((resolve) => {
      const n = started.length;
      inFlight++;
      started.push({ id: req.headers['webhook-id'] as string, inFlight });
      held.push(() => {
        inFlight--;
        resolve(answer(n));
      });
    });
  return {
    post,
    started,
    /** Answers every request held so far, in the same turn. */
    releaseAll: () => held.splice(0).forEach((r) => r()),
    get inFlight() {
      return inFlight;
    },
  };
}

const idNumber = (id: string) => Number(id.replace('msg_', ''));

/** A world with one endpoint for every event type and `n` events written at once. */
async function backlog(n: number, deliverer: Partial<DelivererOptions>) {
  const w = eventsWorld({ deliverer });
  const { body } = await w.createWebhook({ url: 'http://127.0.0.1:9/hook', event_types: ['*'] });
  for (let i = 0; i < n; i++) w.store.events.append({ userId: w.user.id, type: 'post.accepted', jobId: `job_${i}`, data: { job_id: `job_${i}` }, at: w.clock.now() });
  return { w, endpointId: body.webhook.id };
}

const turn = () => new Promise((r) => setImmediate(r));

/** Releases whatever is held, turn by turn, until `total` deliveries have started and ended; a pump each turn (as new events would). */
async function drain(w: ReturnType<typeof eventsWorld>, held: ReturnType<typeof heldPosts>, total: number) {
  for (let i = 0; i < 5000 && (held.started.length < total || w.deliverer.inFlight > 0); i++) {
    w.deliverer.pump();
    await turn();
    held.releaseAll();
  }
  await w.deliverer.settled();
}

describe('webhook delivery pace and order per endpoint', () => {
  it('sends one at a time, in event-id order, while the endpoint keeps up', async () => {
    const held = heldPosts();
    const { w, endpointId } = await backlog(12, { post: held.post });
    await drain(w, held, 12);
    expect(held.started).toHaveLength(12);
    expect(held.started.map((s) => s.inFlight)).toEqual(Array(12).fill(1));
    const ids = held.started.map((s) => idNumber(s.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(w.store.webhooks.deliveries(endpointId, 20).map((m) => m.status)).toEqual(Array(12).fill('delivered'));
  });

  it('opens up to perEndpoint at once when one at a time cannot keep up, started in id order, each sent once; one at a time again once caught up', async () => {
    // keepUpMs 1 over the least round trip assumed (0.1 ms): behind while more than 10 are due.
    const held = heldPosts();
    const { w, endpointId } = await backlog(40, { post: held.post, keepUpMs: 1, perEndpoint: 4 });
    w.deliverer.pump(); // nothing in flight yet: the oldest goes first, alone
    expect(w.deliverer.inFlight).toBe(1);
    w.deliverer.pump(); // 40 due, one in flight: behind, the window opens
    expect(w.deliverer.inFlight).toBe(4);
    await turn();
    expect(held.inFlight).toBe(4);
    await drain(w, held, 40);
    const ids = held.started.map((s) => idNumber(s.id));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(Math.max(...held.started.map((s) => s.inFlight))).toBe(4);
    // The last ones (10 or fewer due) went one at a time again.
    expect(held.started.slice(-8).map((s) => s.inFlight)).toEqual(Array(8).fill(1));
    expect(w.store.webhooks.deliveries(endpointId, 50).map((m) => m.status)).toEqual(Array(40).fill('delivered'));
  });

  it('a delivery in flight when its endpoint is disabled (410 Gone) ends failed, not pending, and keeps its attempt', async () => {
    // keepUpMs 0.1: behind with more than 4 due (the least queue: 4 round trips of 0.1 ms).
    const held = heldPosts((n) => (n === 0 ? 410 : 500));
    const { w, endpointId } = await backlog(6, { post: held.post, keepUpMs: 0.1, perEndpoint: 2 });
    w.deliverer.pump();
    w.deliverer.pump();
    await turn();
    expect(held.inFlight).toBe(2);
    held.releaseAll(); // both end in one turn: their records commit in one transaction
    await w.deliverer.settled();
    expect(w.store.webhooks.get(endpointId)).toMatchObject({ status: 'disabled', disabledReason: 'the receiver answered 410 Gone' });
    const [first, second, ...rest] = w.store.webhooks.deliveries(endpointId, 10).reverse();
    expect(first).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(second).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(second?.attemptList.map((a) => a.statusCode)).toEqual([500]);
    expect(rest.map((m) => [m.status, m.attempts])).toEqual(Array(4).fill(['failed', 0]));
  });

  it('a slow receiver keeps getting one at a time while only a few wait, in order', async () => {
    // Each answer takes 200 ms on the clock: two or three waiting are within four round trips.
    const held = heldPosts();
    const { w } = await backlog(3, { post: held.post });
    w.deliverer.pump();
    await turn();
    for (let i = 0; i < 3; i++) {
      w.deliverer.pump();
      expect(w.deliverer.inFlight).toBe(1);
      await w.clock.advance(200);
      held.releaseAll();
      for (let t = 0; t < 5; t++) await turn();
    }
    await w.deliverer.settled();
    expect(held.started.map((s) => s.inFlight)).toEqual([1, 1, 1]);
  });
});
