import { SocialPub, type ClientOptions } from '@socialpub/sdk';
import { afterEach } from 'vitest';
import { FakeClock } from './fake-clock';
import { startFakeServer, type FakeHandler, type FakeServer } from './fake-server';

/**
 * Fake daemons for one test file: registers an afterEach that closes every server the test
 * started. `start` gives the bare server; `client` also builds a SocialPub on a FakeClock
 * pointed at it (key `sp_key_secret` unless `options` says otherwise).
 */
export function useFakeServers() {
  const open: FakeServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });

  async function start(handler: FakeHandler): Promise<FakeServer> {
    const server = await startFakeServer(handler);
    open.push(server);
    return server;
  }

  async function client(handler: FakeHandler, options: ClientOptions = {}) {
    const server = await start(handler);
    const clock = new FakeClock();
    return { client: new SocialPub({ baseUrl: server.url, apiKey: 'sp_key_secret', clock, ...options }), clock, requests: server.requests, server };
  }

  return { start, client };
}
