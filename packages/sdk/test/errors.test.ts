import {
  APIError,
  APIResponseValidationError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  SocialPub,
  SocialPubError,
} from '@socialpub/sdk';
import { describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../src/errors';
import { FakeClock } from './helpers/fake-clock';
import { useFakeServers } from './helpers/fake-client';
import { errorBody, json } from './helpers/fake-server';

const { start } = useFakeServers();

describe('APIError.from', () => {
  const cases = [
    [400, 'invalid_request', BadRequestError],
    [401, 'unauthorized', AuthenticationError],
    [403, 'platform_not_connected', PermissionDeniedError],
    [404, 'not_found', NotFoundError],
    [409, 'idempotency_conflict', ConflictError],
    [413, 'payload_too_large', PayloadTooLargeError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal', InternalServerError],
    [503, 'unavailable', InternalServerError],
  ] as const;

  it.each(cases)('builds the class for status %i from the one error body', (status, code, Class) => {
    const cause = { name: 'HTTPError', response: { statusCode: status, headers: { 'x-request-id': 'req_1' }, body: JSON.stringify(errorBody(code, 'what went wrong')) } };
    const error = APIError.from(cause);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(SocialPubError);
    expect(error.name).toBe(Class.name);
    // A 429 is said as every tool of ours says one: after the word "error:" (issue 35).
    expect(error).toMatchObject({ status, code, message: status === 429 ? 'error: what went wrong' : 'what went wrong', requestId: 'req_1' });
    expect(error.cause).toBe(cause);
  });

  it('keeps the details of a validation error', () => {
    const details = [{ path: 'caption', message: 'Required' }];
    const error = APIError.from({ response: { statusCode: 400, headers: {}, body: JSON.stringify(errorBody('invalid_request', 'caption is required', { details })) } });
    expect(error.details).toEqual(details);
  });

  it('reads retryAfter from the Retry-After header, else from error.retry_after', () => {
    const fromHeader = APIError.from({ response: { statusCode: 429, headers: { 'retry-after': '42' }, body: JSON.stringify(errorBody('rate_limited', 'slow', { retry_after: 7 })) } });
    expect((fromHeader as RateLimitError).retryAfter).toBe(42);
    const fromBody = APIError.from({ response: { statusCode: 429, headers: {}, body: JSON.stringify(errorBody('rate_limited', 'slow', { retry_after: 7 })) } });
    expect((fromBody as RateLimitError).retryAfter).toBe(7);
  });

  it('says a 429 as the CLI and MCP do: what ran out, what to do and when, in local time', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 25, 15, 17, 0), toFake: ['Date'] });
    try {
      const message = 'rate limited (scheduled-content: 100 an hour); try again in 25 min';
      const error = APIError.from({ response: { statusCode: 429, headers: { 'retry-after': '1500' }, body: JSON.stringify(errorBody('rate_limited', message, { retry_after: 1500 })) } });
      const at = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.UTC(2026, 11, 25, 15, 42, 0));
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.message).toBe(`error: rate limited (scheduled-content: 100 an hour); try again in 25 min (at ${at})`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes the request id from the body when the header is missing', () => {
    const error = APIError.from({ response: { statusCode: 500, headers: {}, body: JSON.stringify(errorBody('internal', 'oops', { request_id: 'req_body' })) } });
    expect(error.requestId).toBe('req_body');
  });

  it('describes a body that is not the error body by its status', () => {
    const error = APIError.from({ response: { statusCode: 502, statusMessage: 'Bad Gateway', headers: {}, body: '<html>proxy down</html>' } });
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('http_502');
    expect(error.message).toBe('HTTP 502 Bad Gateway: <html>proxy down</html>');
  });

  it('builds a plain APIError for a status without its own class', () => {
    const error = APIError.from({ response: { statusCode: 415, headers: {}, body: JSON.stringify(errorBody('unsupported_media_type', 'send JSON')) } });
    expect(error.constructor).toBe(APIError);
    expect(error.code).toBe('unsupported_media_type');
  });
});

describe('parseRetryAfter', () => {
  it('reads whole seconds and HTTP dates', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('errors from a request', () => {
  it('keeps got’s HTTPError as the cause and fills the fields from the answer', async () => {
    const server = await start((_q, res) =>
      json(res, 404, errorBody('not_found', 'No job job_404'), { 'x-request-id': 'req_abc' }),
    );
    const client = new SocialPub({ baseUrl: server.url, apiKey: 'sp_a_b', clock: new FakeClock() });
    const error = (await client.scheduled.get('job_404').catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'No job job_404', requestId: 'req_abc' });
    expect((error.cause as Error).name).toBe('HTTPError');
  });

  it('throws APIResponseValidationError when a 2xx answer does not match the schema', async () => {
    const server = await start((_q, res) => json(res, 200, { success: true, job_id: 42 }));
    const client = new SocialPub({ baseUrl: server.url, apiKey: 'sp_a_b', clock: new FakeClock() });
    const error = (await client.content.publish({ caption: 'x', platforms: ['twitter'], publish_now: true }).catch((e: unknown) => e)) as APIResponseValidationError;
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.body).toEqual({ success: true, job_id: 42 });
  });

  it('refuses to send an authenticated request without a key, naming where to put one', async () => {
    const server = await start((_q, res) => json(res, 200, {}));
    const saved = process.env.SOCIALPUB_API_KEY;
    delete process.env.SOCIALPUB_API_KEY;
    try {
      const client = new SocialPub({ baseUrl: server.url, clock: new FakeClock() });
      const error = (await client.platforms.list().catch((e: unknown) => e)) as AuthenticationError;
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.code).toBe('missing_api_key');
      expect(error.message).toMatch(/SOCIALPUB_API_KEY/);
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.SOCIALPUB_API_KEY = saved;
    }
  });
});
