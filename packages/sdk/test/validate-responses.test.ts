import { APIResponseValidationError, SocialPub } from '@socialpub/sdk';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './helpers/fake-clock';
import { useFakeServers } from './helpers/fake-client';
import { json } from './helpers/fake-server';

const { start } = useFakeServers();

const post = {
  job_id: 'job_1',
  status: 'scheduled',
  caption: 'hello',
  timezone: 'UTC',
  scheduled_for: '2026-12-25T10:00:00.000Z',
  created_at: '2026-12-24T10:00:00.000Z',
  updated_at: '2026-12-24T10:00:00.000Z',
  targets: [],
};

describe('validateResponses', () => {
  it('by default checks each answer: a mismatch throws, unknown fields are dropped', async () => {
    const bad = await start((_q, res) => json(res, 200, { success: true, valid: 'yes' }));
    const client = new SocialPub({ baseUrl: bad.url, apiKey: 'sp_a_b', clock: new FakeClock() });
    const error = await client.auth.validate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect((error as APIResponseValidationError).body).toEqual({ success: true, valid: 'yes' });

    const extra = await start((_q, res) => json(res, 200, { success: true, valid: true, user: { id: '6f1c2b8e-0d5a-4c1e-9a7b-3e2f1d0c9b8a', email: 'a@b.c' }, added_later: 1 }));
    const checked = new SocialPub({ baseUrl: extra.url, apiKey: 'sp_a_b', clock: new FakeClock() });
    expect(await checked.auth.validate()).toEqual({ success: true, valid: true, user: { id: '6f1c2b8e-0d5a-4c1e-9a7b-3e2f1d0c9b8a', email: 'a@b.c' } });
  });

  it('false returns the JSON object as sent, without checking it', async () => {
    const server = await start((_q, res) => json(res, 200, { success: true, posts: [{ ...post, added_later: 1 }], next_cursor: null }));
    const client = new SocialPub({ baseUrl: server.url, apiKey: 'sp_a_b', clock: new FakeClock(), validateResponses: false });
    const page = await client.scheduled.list();
    expect(page.posts).toEqual([{ ...post, added_later: 1 }]);
    expect(page.next_cursor).toBeNull();

    const odd = await start((_q, res) => json(res, 200, { success: true, valid: 'yes' }));
    const unchecked = new SocialPub({ baseUrl: odd.url, apiKey: 'sp_a_b', clock: new FakeClock(), validateResponses: false });
    expect(await unchecked.auth.validate()).toEqual({ success: true, valid: 'yes' });
  });

  it('false returns a CSV answer as the text sent (the MCP tools\' in-process client checks nothing)', async () => {
    const csv = 'job_id,platform\r\njob_1,twitter\r\n';
    const server = await start((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      res.end(csv);
    });
    const client = new SocialPub({ baseUrl: server.url, apiKey: 'sp_a_b', clock: new FakeClock(), validateResponses: false, maxRetries: 0 });
    expect(await client.analytics.exportCsv({ job_id: 'job_1' })).toBe(csv);
  });

  it('false still refuses an answer that is not a JSON object', async () => {
    const server = await start((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not json');
    });
    const client = new SocialPub({ baseUrl: server.url, apiKey: 'sp_a_b', clock: new FakeClock(), validateResponses: false, maxRetries: 0 });
    const error = (await client.auth.validate().catch((e: unknown) => e)) as APIResponseValidationError;
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect(error.body).toBe('not json');

    const scalar = await start((_q, res) => json(res, 200, 42));
    const other = new SocialPub({ baseUrl: scalar.url, apiKey: 'sp_a_b', clock: new FakeClock(), validateResponses: false, maxRetries: 0 });
    const error2 = (await other.auth.validate().catch((e: unknown) => e)) as APIResponseValidationError;
    expect(error2).toBeInstanceOf(APIResponseValidationError);
    expect(error2.body).toBe(42);
  });

  it('health() returns an unhealthy 503 body either way', async () => {
    const body = { status: 'unhealthy', version: '0.1.0', uptime_s: 3, scheduler: { running: false } };
    const server = await start((_q, res) => json(res, 503, body));
    const client = new SocialPub({ baseUrl: server.url, clock: new FakeClock(), validateResponses: false, maxRetries: 0 });
    expect(await client.health()).toEqual(body);
  });
});
