// A server for bench/api/run.ts, in its own process so the load generator does not share
// its event loop: `bare` (a bare Hono handler), `daemon` (the real daemon, limits off) or
// `memory` (the daemon's app over an in-memory SQLite: the HTTP layer without the disk).
// Prints one JSON line {port, key} on stdout once listening.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createAdapters } from '../../packages/daemon/src/platforms/registry';
import { guessingMediaLookup } from '../../packages/daemon/src/ports/media';
import { idleScheduler } from '../../packages/daemon/src/ports/scheduler';
import { createApp, createLogger, createServices, createStore, openAdmin, openDatabase, resolveConfig, startDaemon, systemClock } from '../../packages/daemon/src/index';
import { SecretBox } from '../../packages/daemon/src/util/secrets';

// bench/ is not a package: take hono and its Node server from the daemon's dependencies.
const fromDaemon = createRequire(new URL('../../packages/daemon/package.json', import.meta.url));
const load = async <T>(name: string) => (await import(pathToFileURL(fromDaemon.resolve(name)).href)) as T;
// The little of their API used here (their types do not resolve from bench/ either).
interface Ctx {
  req: { json(): Promise<unknown> };
  json(value: unknown): Response;
}
interface MiniHono {
  get(path: string, handler: (c: Ctx) => Response | Promise<Response>): void;
  post(path: string, handler: (c: Ctx) => Response | Promise<Response>): void;
  fetch: (request: Request) => Response | Promise<Response>;
}
type Serve = (
  options: { fetch: (request: Request) => unknown; hostname: string; port: number },
  listening: (info: { port: number }) => void,
) => { close(done: () => void): void };
const { Hono } = await load<{ Hono: new () => MiniHono }>('hono');
const { serve } = await load<{ serve: Serve }>('@hono/node-server');

const [mode, dataDir] = process.argv.slice(2);

if (mode === 'bare') {
  const app = new Hono();
  // The same route and the same kind of answer as the daemon's, without any of its work.
  app.post('/api/agents/v1/content/publish', async (c) => {
    const body = (await c.req.json()) as { platforms?: string[] };
    return c.json({ success: true, message: 'ok', job_id: 'job_bare', platforms: body.platforms ?? [] });
  });
  app.get('/api/agents/v1/content/scheduled', (c) => c.json({ success: true, posts: [], next_cursor: null }));
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
    console.log(JSON.stringify({ port: info.port }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'daemon' && dataDir) {
  const admin = openAdmin(dataDir);
  const key = admin.listKeys().length === 0 ? admin.createKey({ email: 'bench@example.com' }).api_key : process.env.BENCH_KEY;
  admin.addSandboxConnection('twitter', { email: 'bench@example.com' });
  admin.close();
  const config = resolveConfig({ dataDir, port: 0 }, { ...process.env, SOCIALPUB_RATE_LIMITS: 'off' });
  const daemon = await startDaemon(config, { logger: createLogger({ level: 'warn', write: () => {} }) });
  console.log(JSON.stringify({ port: daemon.port, key }));
  process.on('SIGTERM', () => void daemon.close().then(() => process.exit(0)));
} else if (mode === 'memory') {
  // The daemon's HTTP app over an in-memory store: the cost of the HTTP layer without the disk.
  const db = openDatabase(':memory:');
  const secrets = SecretBox.fromKeyFile(`${dataDir}/secret.key`);
  const store = createStore(db, { secrets, clock: systemClock });
  const { user } = store.users.ensure('bench@example.com', Date.now());
  const key = store.apiKeys.create(user.id, null, Date.now()).apiKey;
  store.connections.save(user.id, 'twitter', { mode: 'sandbox' });
  const config = resolveConfig({ dataDir, port: 0 }, { SOCIALPUB_RATE_LIMITS: 'off' });
  const logger = createLogger({ level: 'warn', write: () => {} });
  // The daemon's composition without its background parts: no scheduler, media kinds from URL extensions.
  const parts = { store, config, clock: systemClock, logger, scheduler: idleScheduler, mediaLookup: guessingMediaLookup, adapters: createAdapters(config.platforms) };
  const app = createApp({ ...parts, services: createServices({ ...parts, secrets }) });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
    console.log(JSON.stringify({ port: info.port, key }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  console.error('usage: server.ts bare | daemon <data-dir> | memory <data-dir>');
  process.exit(2);
}
