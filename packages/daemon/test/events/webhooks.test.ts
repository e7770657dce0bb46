import { MAX_WEBHOOK_ENDPOINTS } from '@socialpub/core';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, errorOf } from '../http/harness';
import { startReceiver } from './receiver';
import { eventsWorld, onCleanup } from './world';

afterEach(() => {
  vi.useRealTimers();
});

/** Verifies as a receiver would, at the clock's time (the package checks the timestamp against Date.now()). */
function verifyAt(now: number, secret: string, body: string, headers: Record<string, string>): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  try {
    return new Webhook(secret).verify(body, headers);
  } finally {
    vi.useRealTimers();
  }
}

async function receiver(answers?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answers);
  onCleanup(() => r.close());
  return r;
}

const publishBody = { caption: 'hello', platforms: ['twitter'], publish_now: true };

describe('webhook endpoints', () => {
  it('creates an endpoint whose secret is shown once, lists it without the secret, updates and deletes it', async () => {
    const w = eventsWorld();
    const r = await receiver();
    const created = await w.createWebhook({ url: r.url, event_types: ['post.accepted', 'target.*'.replace('.*', '.published')], description: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body.webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.body.webhook).toMatchObject({ url: r.url, event_types: ['post.accepted', 'target.published'], description: 'ci', status: 'active' });
    const id = created.body.webhook.id as string;
    const list = (await (await w.call('GET', `${API}/webhooks`)).json()) as { webhooks: Record<string, unknown>[] };
    expect(list.webhooks.map((x) => x.id)).toEqual([id]);
    expect(list.webhooks[0]).not.toHaveProperty('secret');
    const patched = (await (await w.call('PATCH', `${API}/webhooks/${id}`, { body: { event_types: ['*'] } })).json()) as { webhook: Record<string, unknown> };
    expect(patched.webhook).toMatchObject({ event_types: ['*'] });
    expect(patched.webhook).not.toHaveProperty('secret');
    expect((await w.call('DELETE', `${API}/webhooks/${id}`)).status).toBe(200);
    expect((await w.call('GET', `${API}/webhooks/${id}`)).status).toBe(404);
    // Another user's endpoint is not yours.
    const other = w.addUser('other@example.com');
    const mine = await w.createWebhook({ url: r.url, event_types: ['*'] });
    const res = await w.call('GET', `${API}/webhooks/${mine.body.webhook.id}`, { headers: { 'X-API-Key': other.key } });
    expect(res.status).toBe(403);
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const w = eventsWorld({ allowPrivate: false });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'not a url', event_types: ['*'] }, /is not a URL/],
      [{ url: 'ftp://example.com/x', event_types: ['*'] }, /must use https/],
      [{ url: 'http://93.184.216.34/hook', event_types: ['*'] }, /must use https/],
      [{ url: 'https://10.0.0.7/hook', event_types: ['*'] }, /private address/],
      [{ url: 'https://127.0.0.1/hook', event_types: ['*'] }, /loopback address/],
      [{ url: 'https://localhost/hook', event_types: ['*'] }, /loopback host name/],
      [{ url: 'https://169.254.169.254/latest', event_types: ['*'] }, /metadata address/],
      [{ url: 'https://user:pw@example.com/hook', event_types: ['*'] }, /user name or password/],
      [{ url: 'https://93.184.216.34/hook', event_types: ['post.exploded'] }, /event_types/],
      [{ url: 'https://93.184.216.34/hook', event_types: [] }, /at least one event type/],
      [{ url: 'https://93.184.216.34/hook', event_types: ['*'], secret: 'whsec_mine' }, /secret/],
    ];
    for (const [body, message] of cases) {
      const res = await w.call('POST', `${API}/webhooks`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const e = await errorOf(res);
      expect(e.code).toBe('invalid_request');
      expect(`${e.message} ${JSON.stringify(e.details)}`, JSON.stringify(body)).toMatch(message);
    }
    expect(w.store.webhooks.count(w.user.id)).toBe(0);
  });

  it('refuses metadata addresses even when private receivers are allowed', async () => {
    const w = eventsWorld({ allowPrivate: true });
    const res = await w.call('POST', `${API}/webhooks`, { body: { url: 'http://169.254.169.254/latest', event_types: ['*'] } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/metadata/);
    expect((await w.createWebhook({ url: 'http://10.1.2.3/hook', event_types: ['*'] })).status).toBe(201);
  });

  it(`caps endpoints at ${MAX_WEBHOOK_ENDPOINTS} per user`, async () => {
    const w = eventsWorld();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) expect((await w.createWebhook({ url: `http://127.0.0.1:9/h${i}`, event_types: ['*'] })).status).toBe(201);
    const res = await w.call('POST', `${API}/webhooks`, { body: { url: 'http://127.0.0.1:9/more', event_types: ['*'] } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
    expect(w.store.webhooks.count(w.user.id)).toBe(MAX_WEBHOOK_ENDPOINTS);
    // The cap is per user.
    const other = w.addUser('other@example.com');
    const res2 = await w.call('POST', `${API}/webhooks`, { body: { url: 'http://127.0.0.1:9/x', event_types: ['*'] }, headers: { 'X-API-Key': other.key } });
    expect(res2.status).toBe(201);
  });
});

describe('webhook delivery', () => {
  it('signs every delivery per Standard Webhooks: the official verifier accepts it and rejects a tampered one', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const r = await receiver();
    const { body } = await w.createWebhook({ url: r.url, event_types: ['*'] });
    const secret = body.webhook.secret as string;
    expect((await w.call('POST', `${API}/content/publish`, { body: publishBody })).status).toBe(200);
    expect((await w.call('POST', `${API}/webhooks/${body.webhook.id}/test`)).status).toBe(202);
    await w.deliver();
    await w.deliver();
    expect(r.received.map((x) => (JSON.parse(x.body) as { type: string }).type)).toEqual(['post.accepted', 'webhook.test']);
    for (const x of r.received) {
      const event = verifyAt(w.clock.now(), secret, x.body, x.headers) as { id: string; type: string; data: Record<string, unknown> };
      expect(event.type).toBe((JSON.parse(x.body) as { type: string }).type);
      expect(x.headers['content-type']).toBe('application/json');
      const tampered = x.body.replace('"data":{', '"data":{"injected":1,');
      expect(tampered).not.toBe(x.body);
      expect(() => verifyAt(w.clock.now(), secret, tampered, x.headers)).toThrow(/signature/i);
      expect(() => verifyAt(w.clock.now(), 'whsec_' + Buffer.alloc(24, 7).toString('base64'), x.body, x.headers)).toThrow(/signature/i);
    }
    const first = JSON.parse(r.received[0]!.body) as { data: { job_id: string; status: string; targets: unknown[] } };
    expect(first.data).toMatchObject({ status: 'publishing', targets: [{ platform: 'twitter', type: 'tweet', status: 'scheduled' }] });
  });

  it('retries 500, 500, then 200 with the same webhook-id on the schedule 5 s, 5 min', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const answers = [500, 500, 200];
    const r = await receiver((n) => answers[n] ?? 200);
    const { body } = await w.createWebhook({ url: r.url, event_types: ['post.accepted'] });
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    const t0 = w.clock.now();
    await w.deliver();
    expect(r.received).toHaveLength(1);
    await w.clock.advance(4_999);
    await w.deliver();
    expect(r.received).toHaveLength(1);
    await w.clock.advance(1);
    await w.deliver();
    expect(r.received).toHaveLength(2);
    await w.clock.advance(5 * 60_000);
    await w.deliver();
    expect(r.received).toHaveLength(3);
    const ids = new Set(r.received.map((x) => x.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^msg_\d+$/);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    for (const x of r.received) verifyAt(Number(x.headers['webhook-timestamp']) * 1000, body.webhook.secret as string, x.body, x.headers);
    const list = (await (await w.call('GET', `${API}/webhooks/${body.webhook.id}/deliveries`)).json()) as { deliveries: { id: string; attempts: { status_code: number; started_at: string }[]; [k: string]: unknown }[] };
    expect(list.deliveries).toHaveLength(1);
    expect(list.deliveries[0]).toMatchObject({ id: [...ids][0], event_type: 'post.accepted', status: 'delivered', next_attempt_at: null });
    expect(list.deliveries[0]!.attempts.map((a) => [a.status_code, Date.parse(a.started_at) - t0])).toEqual([
      [500, 0],
      [500, 5_000],
      [200, 5_000 + 300_000],
    ]);
    // Redelivery sends it once more with the same id.
    const again = await w.call('POST', `${API}/webhooks/${body.webhook.id}/deliveries/${[...ids][0]}/redeliver`);
    expect(again.status).toBe(202);
    await w.deliver();
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([...Array(4)].map(() => [...ids][0]));
  });

  it('gives up after the schedule (over 24 hours) and disables an endpoint failing for 5 days, with an event', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const r = await receiver(() => 503);
    const failing = await w.createWebhook({ url: r.url, event_types: ['post.accepted'] });
    const ok = await receiver(() => 200);
    await w.createWebhook({ url: ok.url, event_types: ['webhook.endpoint_disabled'] });
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    const start = w.clock.now();
    for (let i = 0; i < 10; i++) {
      await w.deliver();
      const next = w.store.webhooks.nextDueAt();
      if (next === null) break;
      await w.clock.advance(next - w.clock.now());
    }
    expect(r.received).toHaveLength(8);
    expect(w.clock.now() - start).toBeGreaterThan(24 * 3_600_000);
    const [d] = ((await (await w.call('GET', `${API}/webhooks/${failing.body.webhook.id}/deliveries`)).json()) as { deliveries: { status: string }[] }).deliveries;
    expect(d?.status).toBe('failed');
    // Still active after 28 h; a failure 5 days after the first disables it.
    expect(w.store.webhooks.get(failing.body.webhook.id)?.status).toBe('active');
    await w.clock.advance(5 * 24 * 3_600_000);
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    await w.deliver();
    const ep = w.store.webhooks.get(failing.body.webhook.id);
    expect(ep).toMatchObject({ status: 'disabled' });
    expect(ep?.disabledReason).toMatch(/^every delivery failed for [56] days$/);
    await w.deliver();
    const note = ok.received.map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> });
    expect(note).toMatchObject([{ type: 'webhook.endpoint_disabled', data: { endpoint_id: failing.body.webhook.id, url: r.url } }]);
  });

  it('disables an endpoint answering 410 Gone at once', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const r = await receiver(() => 410);
    const { body } = await w.createWebhook({ url: r.url, event_types: ['*'] });
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    await w.deliver();
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    await w.deliver();
    expect(r.received).toHaveLength(1);
    expect(w.store.webhooks.get(body.webhook.id)).toMatchObject({ status: 'disabled', disabledReason: 'the receiver answered 410 Gone' });
    expect(w.eventTypes()).toContain('webhook.endpoint_disabled');
    // Enabled again, it receives new events.
    await w.call('PATCH', `${API}/webhooks/${body.webhook.id}`, { body: { enabled: true } });
    expect(w.store.webhooks.get(body.webhook.id)?.status).toBe('active');
  });

  it('rotates the secret with an overlap: both secrets sign for 24 h, then only the new one', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const r = await receiver();
    const { body } = await w.createWebhook({ url: r.url, event_types: ['post.accepted'] });
    const old = body.webhook.secret as string;
    const rotated = (await (await w.call('PATCH', `${API}/webhooks/${body.webhook.id}`, { body: { rotate_secret: true } })).json()) as { webhook: { secret: string } };
    const fresh = rotated.webhook.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    await w.deliver();
    const x = r.received[0]!;
    expect(x.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    verifyAt(w.clock.now(), old, x.body, x.headers);
    verifyAt(w.clock.now(), fresh, x.body, x.headers);
    await w.clock.advance(24 * 3_600_000 + 1);
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    await w.deliver();
    const y = r.received[1]!;
    expect(y.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    verifyAt(w.clock.now(), fresh, y.body, y.headers);
    expect(() => verifyAt(w.clock.now(), old, y.body, y.headers)).toThrow(/signature/i);
  });

  it('a hanging receiver delays neither a publish nor another endpoint; its attempt times out on the clock and is retried', async () => {
    const w = eventsWorld({ deliverer: { timeoutMs: 15_000 } });
    w.connect(['twitter']);
    const slow = await receiver(() => 'hang');
    const fast = await receiver(() => 200);
    await w.createWebhook({ url: slow.url, event_types: ['post.accepted'] });
    await w.createWebhook({ url: fast.url, event_types: ['post.accepted'] });
    await w.call('POST', `${API}/content/publish`, { body: publishBody });
    w.deliverer.pump();
    await slow.waitFor(1);
    await fast.waitFor(1);
    await vi.waitFor(() => expect(w.deliverer.inFlight).toBe(1)); // the fast one ends; the slow one hangs
    // Publishing goes on while it hangs: the answer comes back and the events are written.
    const res = await w.call('POST', `${API}/content/publish`, { body: publishBody });
    expect(res.status).toBe(200);
    w.deliverer.pump();
    await fast.waitFor(2);
    expect(slow.received).toHaveLength(1); // one in flight per endpoint, in order
    await w.clock.advance(15_000);
    // The first attempt timed out and waits 5 s for its retry; the next event goes now.
    await slow.waitFor(2);
    const [first, second] = w.store.webhooks.deliveries(w.store.webhooks.list(w.user.id).find((e) => e.url === slow.url)!.id, 10).reverse();
    expect(first?.attemptList).toEqual([{ startedAt: w.clock.now() - 15_000, durationMs: 15_000, statusCode: null, error: 'no answer within 15 s' }]);
    expect(first).toMatchObject({ status: 'pending', nextAttemptAt: w.clock.now() + 5_000 });
    expect(second?.attemptList).toEqual([]);
  });
});
