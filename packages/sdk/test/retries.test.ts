import { createServer } from 'node:net';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  ConflictError,
  InternalServerError,
  RateLimitError,
  SocialPub,
  SocialPubError,
} from '@socialpub/sdk';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './helpers/fake-clock';
import { useFakeServers } from './helpers/fake-client';
import { errorBody, json, type FakeHandler } from './helpers/fake-server';
import { post, publishResult } from './helpers/fixtures';

const { client: setup } = useFakeServers();

const failThen = (failures: number, fail: FakeHandler, ok: FakeHandler): FakeHandler => (req, res, i) => (i < failures ? fail(req, res, i) : ok(req, res, i));
const getOk: FakeHandler = (req, res) => json(res, 200, { success: true, post: post(req.url.searchParams.get('job_id') ?? 'job_x') });
const internal: FakeHandler = (_req, res) => json(res, 500, errorBody('internal', 'Something went wrong'));

/** A port nothing listens on: bind, note the port, close. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('retries', () => {
  it('retries a GET after 5xx with exponential backoff from 0.5 s and jitter of at most 25%', async () => {
    const { client, clock, requests } = await setup(failThen(2, internal, getOk));
    const { post: got } = await client.scheduled.get('job_1');
    expect(got.job_id).toBe('job_1');
    expect(requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(500);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(750);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { client, requests } = await setup(internal, { maxRetries: 3 });
    const error = await client.scheduled.get('job_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(4);
  });

  it('lets a request override maxRetries, 0 meaning one attempt', async () => {
    const { client, requests } = await setup(internal, { maxRetries: 5 });
    await expect(client.scheduled.get('job_1', { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
  });

  it('retries 408 but never a 4xx such as 409', async () => {
    const { client, requests } = await setup(failThen(1, (_q, res) => json(res, 408, errorBody('internal', 'slow')), getOk));
    await client.scheduled.get('job_1');
    expect(requests).toHaveLength(2);

    const second = await setup((_q, res) => json(res, 409, errorBody('conflict', 'Nothing left to move')));
    await expect(second.client.scheduled.update('job_1', { scheduled_for: '2026-12-25T11:00:00Z' })).rejects.toBeInstanceOf(ConflictError);
    expect(second.requests).toHaveLength(1);
  });

  it('waits exactly Retry-After seconds after a 429 and then succeeds', async () => {
    const { client, clock, requests } = await setup(
      failThen(1, (_q, res) => json(res, 429, errorBody('rate_limited', 'Too many requests', { retry_after: 3 }), { 'retry-after': '3' }), getOk),
    );
    await client.scheduled.get('job_1');
    expect(clock.sleeps).toEqual([3000]);
    expect(requests).toHaveLength(2);
  });

  it('throws RateLimitError at once when Retry-After is longer than maxRetryAfter', async () => {
    const { client, clock, requests } = await setup((_q, res) => json(res, 429, errorBody('rate_limited', 'Hourly limit reached'), { 'retry-after': '1800' }));
    const error = await client.scheduled.get('job_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(1800);
    expect(clock.sleeps).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('retries a POST that carries no idempotency key after a 429, since the daemon did nothing', async () => {
    const { client, requests } = await setup(
      failThen(1, (_q, res) => json(res, 429, errorBody('rate_limited', 'slow down'), { 'retry-after': '1' }), (req, res) =>
        json(res, 200, { success: true, message: 'Approved', post: post(req.url.searchParams.get('job_id') ?? '') }),
      ),
    );
    const answer = await client.scheduled.approve('job_9');
    expect(answer.post.job_id).toBe('job_9');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('waits Retry-After on a 503 before retrying', async () => {
    const { client, clock } = await setup(failThen(1, (_q, res) => json(res, 503, errorBody('unavailable', 'database busy'), { 'retry-after': '2' }), getOk));
    await client.scheduled.get('job_1');
    expect(clock.sleeps).toEqual([2000]);
  });

  it('retries DELETE and the read-only POSTs after a 500, since repeating them changes nothing', async () => {
    const user = { id: '0b6f6a8e-4a39-4a57-9c57-2a6d0f7c1e11', email: 'a@example.com' };
    const { client, requests } = await setup((req, res, i) => {
      if (i % 2 === 0) return internal(req, res, i);
      if (req.method === 'DELETE') return json(res, 200, { success: true, message: 'Cancelled', job_id: 'job_1', status: 'cancelled' });
      if (req.url.pathname.endsWith('/auth/validate')) return json(res, 200, { success: true, valid: true, user });
      return json(res, 200, { success: true, valid: true, targets: [], errors: [] });
    });
    await client.scheduled.cancel('job_1');
    await client.auth.validate();
    await client.content.validate({ caption: 'c', platforms: ['twitter'], publish_now: true });
    expect(requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'POST', 'POST', 'POST', 'POST']);
  });

  it('does not retry a POST without an idempotency key after a 500', async () => {
    const { client, requests } = await setup(internal);
    await expect(client.scheduled.approve('job_9')).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
  });

  it('sends one generated Idempotency-Key with content.publish and resends it on every retry', async () => {
    const { client, requests } = await setup(failThen(2, (_q, res) => json(res, 503, errorBody('unavailable', 'busy')), (_q, res) => json(res, 200, publishResult('job_7'))));
    const result = await client.content.publish({ caption: 'hi', platforms: ['twitter'], publish_now: true });
    expect(result.job_id).toBe('job_7');
    expect(requests).toHaveLength(3);
    const keys = requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(JSON.parse(requests[2]?.body ?? '')).toEqual({ caption: 'hi', platforms: ['twitter'], publish_now: true });

    await client.content.publish({ caption: 'again', platforms: ['twitter'], publish_now: true });
    expect(requests[3]?.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('uses the caller’s idempotencyKey when given', async () => {
    const { client, requests } = await setup((_q, res) => json(res, 200, { success: true, task_id: 'task_1', message: 'Preparing 1 file' }));
    await client.media.prepare({ urls: ['https://example.com/a.jpg'] }, { idempotencyKey: 'my-key-1' });
    expect(requests[0]?.headers['idempotency-key']).toBe('my-key-1');
  });

  it('retries a keyed POST whose connection broke after sending', async () => {
    const { client, requests } = await setup(failThen(1, (_q, res) => res.socket?.destroy(), (_q, res) => json(res, 200, publishResult('job_8'))));
    const result = await client.content.publish({ caption: 'hi', platforms: ['twitter'], publish_now: true });
    expect(result.job_id).toBe('job_8');
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['idempotency-key']).toBe(requests[0]?.headers['idempotency-key']);
  });

  it('does not retry an unkeyed POST whose connection broke after sending', async () => {
    const { client, requests } = await setup((_q, res) => res.socket?.destroy());
    const error = await client.scheduled.reject('job_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).status).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('reports a refused connection as APIConnectionError after retrying it', async () => {
    const clock = new FakeClock();
    const client = new SocialPub({ baseUrl: `http://127.0.0.1:${await deadPort()}`, apiKey: 'sp_a_b', clock, maxRetries: 2 });
    const error = await client.scheduled.approve('job_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toBeInstanceOf(SocialPubError);
    expect((error as APIConnectionError).code).toBe('ECONNREFUSED');
    expect((error as APIConnectionError).message).toMatch(/Could not reach the socialpub daemon/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('timeouts and aborts', () => {
  const never: FakeHandler = () => undefined;

  it('fails an attempt that takes longer than timeout with APIConnectionTimeoutError', async () => {
    const { client, requests } = await setup(never, { timeout: 60_000 });
    const error = await client.scheduled.get('job_1', { timeout: 50, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionTimeoutError).status).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('retries a timed-out GET', async () => {
    const { client, clock, requests } = await setup(failThen(1, never, getOk), { timeout: 250 });
    await client.scheduled.get('job_1');
    expect(requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('rejects with the signal’s reason when the caller aborts mid-request, without retrying', async () => {
    const controller = new AbortController();
    const { client, requests } = await setup(() => controller.abort());
    const error = await client.scheduled.get('job_1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(SocialPubError);
    expect(requests).toHaveLength(1);
  });

  it('rejects with the signal’s reason when the caller aborts during a retry wait', async () => {
    const controller = new AbortController();
    const { client, clock, requests } = await setup(internal);
    clock.onSleep = () => controller.abort(new Error('user gave up'));
    const error = await client.scheduled.get('job_1', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('user gave up');
    expect(requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { client, requests } = await setup(getOk);
    await expect(client.scheduled.get('job_1', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
  });
});
