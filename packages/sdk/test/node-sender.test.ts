import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { APIConnectionTimeoutError, APIError } from '@socialpub/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { SocialPub } from '../src/light-client';
import { FakeClock } from './helpers/fake-clock';
import { listenOnLoopback } from './helpers/listen';
import { useFakeServers } from './helpers/fake-client';
import { json } from './helpers/fake-server';

// What only the CLI's sender (node:http, src/senders/node-sender.ts) decides; everything
// the SDK promises is checked by the SDK's suites, run again with it (light-client.test.ts).
const { start } = useFakeServers();
const light = (baseUrl: string, timeout = 5_000) => new SocialPub({ baseUrl, apiKey: 'sp_key_secret', clock: new FakeClock(), timeout, maxRetries: 0, validateResponses: false });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

describe('the node:http sender', () => {
  it('sends the SDK headers and a Content-Length for a JSON body', async () => {
    const server = await start((_q, res) => json(res, 200, { success: true, user: { id: 'u', email: 'a@b.c' } }));
    await light(server.url).auth.validate();
    const [req] = server.requests;
    expect(req?.headers['user-agent']).toMatch(/^socialpub-sdk\/\d+\.\d+\.\d+ node\//);
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers.authorization).toBe('Bearer sp_key_secret');
    expect(req?.headers['content-length']).toBe('0');
    expect(req?.headers['content-type']).toBe('application/json');
  });

  it('follows no redirect: a 3xx is an APIError with its status, and nothing is asked of the new address', async () => {
    const server = await start((_q, res) => {
      res.writeHead(301, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    const error = (await light(server.url).scheduled.get('job_1').catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(301);
    expect(error.message).toBe('HTTP 301 Moved Permanently');
    expect((error.cause as Error).name).toBe('HTTPError');
    expect(server.requests).toHaveLength(1);
  });

  it('bounds an upload by the wait for the answer once the body is sent, not by the whole', async () => {
    let received = 0;
    const server = createServer((req) => {
      req.on('data', (c: Buffer) => (received += c.length));
      // Reads the whole body, then never answers.
    });
    const { url, close } = await listenOnLoopback(server);
    closers.push(async () => {
      server.closeAllConnections();
      await close();
    });
    // Slower than the time-out in total, but never silent for that long.
    const chunks = async function* () {
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 100));
        yield Buffer.alloc(1000, i);
      }
    };
    const error = (await light(url, 250).media.upload(Readable.from(chunks()), { filename: 'a.bin' }).catch((e: unknown) => e)) as APIConnectionTimeoutError;
    expect(received).toBe(4000);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    // The socket is silent from the last byte sent: its limit or the answer's ends it, as with got.
    expect(error.message).toMatch(/^Request timed out \(Timeout awaiting '(socket|response)' for 250ms\)$/);
  });
});
