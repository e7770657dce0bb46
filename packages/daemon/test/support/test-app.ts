import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { createServices, type ServiceParts } from '../../src/compose';
import type { DaemonConfig } from '../../src/config';
import { createApp, type AppDeps } from '../../src/http/app';
import type { AppServices } from '../../src/http/deps';
import type { AppEnv } from '../../src/http/env';
import { createAdapters } from '../../src/platforms/registry';
import { guessingMediaLookup } from '../../src/ports/media';
import { idleScheduler } from '../../src/ports/scheduler';
import type { DB } from '../../src/store/database';
import { createStore, type Store } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';

/**
 * What a test gives to get the HTTP app: the database (or a store over it) and the config;
 * everything else has a test default. The services are built by the composition root's
 * createServices(), as daemon.ts does, so a test runs the same wiring as the daemon.
 */
export type TestAppDeps = { config: DaemonConfig } & ({ db: DB; store?: Store } | { db?: DB; store: Store }) &
  Partial<Omit<ServiceParts, 'config' | 'store'>> &
  Partial<Omit<AppDeps, 'config' | 'store' | 'services'>>;

/**
 * Defaults: the system clock, a logger of errors only (to stderr), a throwaway secret key, a store over `db`,
 * idleScheduler, guessingMediaLookup (kinds from URL extensions), createAdapters(config.platforms).
 */
export function testApp(deps: TestAppDeps): { app: Hono<AppEnv>; services: AppServices; store: Store } {
  const config = deps.config;
  const clock = deps.clock ?? systemClock;
  // Errors only, to stderr: a 500 a test meets by surprise says why in the test's output.
  const logger = deps.logger ?? createLogger({ level: 'error' });
  const secrets = deps.secrets ?? new SecretBox(randomBytes(32));
  const store = deps.store ?? createStore(deps.db!, { secrets, clock, sync: config.sqliteSync });
  const scheduler = deps.scheduler ?? idleScheduler;
  const mediaLookup = deps.mediaLookup ?? guessingMediaLookup;
  const adapters = deps.adapters ?? createAdapters(config.platforms);
  const services = createServices({
    store,
    config,
    clock,
    logger,
    secrets,
    scheduler,
    mediaLookup,
    adapters,
    ...(deps.removers ? { removers: deps.removers } : {}),
    ...(deps.sandboxBaseUrl ? { sandboxBaseUrl: deps.sandboxBaseUrl } : {}),
    ...(deps.hub ? { hub: deps.hub } : {}),
    ...(deps.webhookQueued ? { webhookQueued: deps.webhookQueued } : {}),
    ...(deps.webhookResolve ? { webhookResolve: deps.webhookResolve } : {}),
    ...(deps.connectDeps ? { connectDeps: deps.connectDeps } : {}),
    ...(deps.commentClients ? { commentClients: deps.commentClients } : {}),
    ...(deps.publishingBusy ? { publishingBusy: deps.publishingBusy } : {}),
    ...(deps.collector ? { collector: deps.collector } : {}),
  });
  const app = createApp({
    config,
    clock,
    logger,
    store,
    scheduler,
    mediaLookup,
    adapters,
    services,
    ...(deps.mediaRoutes ? { mediaRoutes: deps.mediaRoutes } : {}),
    ...(deps.fileRoutes ? { fileRoutes: deps.fileRoutes } : {}),
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    ...(deps.clientAddress ? { clientAddress: deps.clientAddress } : {}),
    ...(deps.heartbeatMs !== undefined ? { heartbeatMs: deps.heartbeatMs } : {}),
    ...(deps.dashboardFiles ? { dashboardFiles: deps.dashboardFiles } : {}),
    ...(deps.validateResponses !== undefined ? { validateResponses: deps.validateResponses } : {}),
  });
  return { app, services, store };
}
