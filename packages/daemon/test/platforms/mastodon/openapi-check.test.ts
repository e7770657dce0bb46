import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';
import { checkExchange } from './openapi-check';

const exchange = (over: Partial<RecordedRequest>): RecordedRequest => ({
  host: 'mastodon.social',
  method: 'POST',
  path: '/api/v1/statuses',
  query: {},
  headers: {},
  body: { status: 'hello' },
  contentType: 'application/json',
  status: 422,
  responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '2026-01-01T00:00:00.000Z' },
  responseBody: { error: 'Validation failed: Text can\'t be blank' },
  at: 0,
  ...over,
});

describe("the check of Mastodon traffic against Mastodon's OpenAPI description", () => {
  it('accepts an exchange as the description has it', () => {
    expect(checkExchange(exchange({}))).toEqual([]);
  });

  it('names an unknown operation, a wrong body type, an unknown query parameter, a malformed answer and a missing rate-limit header', () => {
    expect(checkExchange(exchange({ path: '/api/v1/toots' }))).toEqual(['POST /api/v1/toots: not an operation of the Mastodon API description']);
    expect(checkExchange(exchange({ body: { status: 42 } })).join()).toMatch(/request body/);
    expect(checkExchange(exchange({ method: 'GET', path: '/api/v1/accounts/1/statuses', query: { limit: '40', page: '2' }, status: 200, responseBody: [] }))).toEqual([
      'GET /api/v1/accounts/{id}/statuses: unknown query parameter page',
    ]);
    expect(checkExchange(exchange({ responseBody: { message: 'no' } })).join()).toMatch(/response 422/);
    expect(checkExchange(exchange({ method: 'GET', path: '/api/v1/media/7', body: undefined, status: 206, responseHeaders: {} }))).toEqual([
      'GET /api/v1/media/{id}: answer 206 lacks the X-RateLimit-Limit header',
      'GET /api/v1/media/{id}: answer 206 lacks the X-RateLimit-Remaining header',
      'GET /api/v1/media/{id}: answer 206 lacks the X-RateLimit-Reset header',
    ]);
  });
});
