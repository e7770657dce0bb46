import type { Hono } from 'hono';
import type { AppEnv } from './http/env';
import { createFileRoutes, createMediaRoutes } from './http/routes/media';
import type { Logger } from './util/logger';
import type { MediaLookup, MediaResolver } from './ports/media';
import type { Store } from './store/store';
import type { Clock } from './util/clock';
import { createMediaLookup } from './media/media-lookup';
import { createMediaResolver } from './media/media-resolver';
import { MediaService, type MediaServiceOptions } from './media/media-service';
import { MediaSweeper } from './media/media-sweeper';

export interface CreateMediaOptions {
  /** The repositories media uses: media_tasks and media_files, and the idempotency records of POST /prepare. */
  store: Pick<Store, 'media' | 'idempotency'>;
  /** config.mediaDir */
  dir: string;
  /** config.publicUrl, else the listen address (http://127.0.0.1:8787); a function when known only after listening. */
  publicBaseUrl: string | (() => string);
  clock?: Clock;
  log?: Logger;
  /** Allow fetching from private networks (config.mediaAllowPrivate). Default false. */
  allowPrivate?: boolean;
  /** Size cap of a prepared or uploaded file (config.mediaMaxBytes). Default 500 MB. */
  maxBytes?: number;
  /** Anything else of the service (hosts, guard, limits) for tests and benchmarks. */
  service?: Partial<MediaServiceOptions>;
}

export interface MediaModule {
  service: MediaService;
  sweeper: MediaSweeper;
  lookup: MediaLookup;
  resolver: MediaResolver;
  /** Mount under /api/agents/v1/media behind auth, the 'media' rate limit and Idempotency-Key (POST /upload keeps its own, outside the JSON body limit). */
  mediaRoutes: Hono<AppEnv>;
  /** Mount at /files, unauthenticated. */
  fileRoutes: Hono;
  /** At daemon start: resume unfinished tasks, start the sweeper. */
  start(): Promise<void>;
  /** At shutdown: stop the sweeper and the downloads (they resume at the next start). */
  stop(): Promise<void>;
}

/** Media preparation, wired: the composition root (daemon.ts) calls this once. */
export function createMedia(options: CreateMediaOptions): MediaModule {
  const service = new MediaService({
    files: options.store.media,
    dir: options.dir,
    publicBaseUrl: options.publicBaseUrl,
    clock: options.clock,
    log: options.log,
    allowPrivate: options.allowPrivate ?? false,
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...options.service,
  });
  const sweeper = new MediaSweeper(service, { log: options.log });
  return {
    service,
    sweeper,
    lookup: createMediaLookup(service),
    resolver: createMediaResolver(service),
    mediaRoutes: createMediaRoutes({ media: service, idempotency: options.store.idempotency }),
    fileRoutes: createFileRoutes({ media: service }),
    async start() {
      await service.resume();
      sweeper.start();
    },
    async stop() {
      await sweeper.stop();
      await service.close();
    },
  };
}
