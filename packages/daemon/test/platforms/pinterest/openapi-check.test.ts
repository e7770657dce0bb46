import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';
import { checkExchange } from './openapi-check';

const pin = { id: '813744226420795884', board_id: '4', title: 't', description: 'd', link: null, created_at: '2026-11-26T10:00:00', media: { media_type: 'image' } };
const base: RecordedRequest = {
  host: 'api.pinterest.com',
  method: 'POST',
  path: '/v5/pins',
  query: {},
  headers: {},
  contentType: 'application/json',
  body: { board_id: '4', description: 'd', media_source: { source_type: 'image_url', url: 'https://example.com/a.jpg' } },
  status: 201,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: pin,
  at: 0,
};

describe("the check against Pinterest's OpenAPI description", () => {
  it('accepts an exchange that matches it', () => {
    expect(checkExchange(base)).toEqual([]);
  });

  it('reports a request body it does not allow: a board id that is not digits, a description over 800, an unknown media source', () => {
    expect(checkExchange({ ...base, body: { ...(base.body as object), board_id: 'my-board' } })).toEqual([expect.stringMatching(/request body.*pattern/)]);
    expect(checkExchange({ ...base, body: { ...(base.body as object), description: 'x'.repeat(801) } })).toEqual([expect.stringMatching(/request body.*maxLength/)]);
    expect(checkExchange({ ...base, body: { board_id: '4', media_source: { source_type: 'video_url', url: 'x' } } })).toEqual([expect.stringMatching(/request body/)]);
  });

  it('reports a response that does not match, query parameters it does not list, and paths that are not v5 operations', () => {
    expect(checkExchange({ ...base, status: 400, responseBody: { error: 'bad' } })).toEqual([expect.stringMatching(/response 400/)]);
    expect(checkExchange({ ...base, method: 'GET', path: '/v5/boards', query: { page_size: '100', sort: 'new' }, body: undefined, status: 200, responseBody: { items: [] } })).toEqual([
      'GET /boards: unknown query parameter sort',
    ]);
    expect(checkExchange({ ...base, method: 'GET', path: '/v5/boards', query: { page_size: '500' }, body: undefined, status: 200, responseBody: { items: [] } })).toEqual([expect.stringMatching(/query page_size=500/)]);
    expect(checkExchange({ ...base, path: '/v3/pins/' })).toEqual([expect.stringMatching(/not under \/v5/)]);
    expect(checkExchange({ ...base, path: '/v5/pins/create' })).toEqual([expect.stringMatching(/not an operation/)]);
  });
});
