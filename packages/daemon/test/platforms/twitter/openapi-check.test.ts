import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';
import { checkExchange } from './openapi-check';

const base: RecordedRequest = {
  host: 'api.x.com',
  method: 'POST',
  path: '/2/tweets',
  query: {},
  headers: {},
  contentType: 'application/json',
  body: { text: 'hi' },
  status: 201,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: { data: { id: '1', text: 'hi', edit_history_post_ids: ['1'] } },
  at: 0,
};

describe('the OpenAPI traffic check', () => {
  it('accepts an exchange that matches the X description', () => {
    expect(checkExchange(base)).toEqual([]);
  });

  it('reports a request field the description does not allow', () => {
    expect(checkExchange({ ...base, body: { text: 'hi', tweet_mode: 'extended' } })).toEqual([expect.stringMatching(/request body/)]);
  });

  it('reports a response that does not match its schema', () => {
    expect(checkExchange({ ...base, responseBody: { data: { id: 'not-a-number', text: 'hi' } } })).toEqual([expect.stringMatching(/response 201/)]);
  });

  it('reports a problem body whose type is not one the description lists', () => {
    const r = { ...base, status: 403, responseHeaders: { 'content-type': 'application/problem+json' }, responseBody: { type: 'about:blank', title: 'Forbidden', detail: 'x', status: 403 } };
    expect(checkExchange(r)).toEqual([expect.stringMatching(/response 403/)]);
  });

  it('reports unknown query parameters and paths that are not X operations', () => {
    expect(checkExchange({ ...base, method: 'GET', path: '/2/media/upload', query: { media_id: '5', command: 'STATUS', verbose: '1' }, body: undefined, responseBody: { data: { id: '5' } }, status: 200 })).toEqual([
      'GET /2/media/upload: unknown query parameter verbose',
    ]);
    expect(checkExchange({ ...base, path: '/1.1/statuses/update.json' })).toEqual([expect.stringMatching(/not an operation/)]);
  });
});
