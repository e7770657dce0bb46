/**
 * The daemon process of the crash test across every adapter step: the real scheduler,
 * publisher and the six real adapters over the SQLite file argv[2], publishing to the
 * sandbox simulators this same process serves on 127.0.0.1:argv[3] over the same database
 * (as the daemon serves them under /sandbox), so a SIGKILL stops the platforms mid-request
 * too and what they had made is what their transactions committed. Media URLs resolve to
 * the files in argv[4] (`a.jpg`, `a.mp4`). Prints "ready" once started; exits cleanly on
 * SIGTERM. Only latencies are shortened (status polls, reconcile settle times, backoff).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Platform } from '@socialpub/core';
import type { Credentials, MediaItem, PlatformAdapter } from '../../src/platforms/adapter';
import { createFacebookAdapter } from '../../src/platforms/facebook/adapter';
import { createInstagramAdapter } from '../../src/platforms/instagram/adapter';
import { createSandboxApp } from '../../src/platforms/sandbox';
import { createThreadsAdapter } from '../../src/platforms/threads/adapter';
import { createTiktokAdapter } from '../../src/platforms/tiktok/adapter';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { createYoutubeAdapter } from '../../src/platforms/youtube/adapter';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { credentialsOnly, runPublishingChild } from './publishing-child';
import { sandboxStore } from '../support/sandbox-records';

const [dbPath, portArg, mediaDir] = process.argv.slice(2);
if (!dbPath || !portArg || !mediaDir) throw new Error('usage: adapters-child.ts <db> <sandbox port> <media dir>');

const db = openDatabase(dbPath);
const sandbox = createSandboxApp({ store: sandboxStore(db), clock: systemClock });
const server = serve({ fetch: sandbox.fetch, hostname: '127.0.0.1', port: Number(portArg) });
await new Promise((r) => server.once('listening', r));
const simUrl = `http://127.0.0.1:${portArg}`;

const adapters = new Map<Platform, PlatformAdapter>([
  ['instagram', createInstagramAdapter({ pollIntervalMs: 250 })],
  ['facebook', createFacebookAdapter({ pollIntervalMs: 250, reconcileSettleMs: 2_000 })],
  ['threads', createThreadsAdapter({ pollIntervalMs: 250 })],
  ['twitter', createTwitterAdapter({ reconcileSettleMs: 2_000, requestTimeoutMs: 15_000 })],
  ['tiktok', createTiktokAdapter({ pollMs: 250 })],
  ['youtube', createYoutubeAdapter({ chunkBytes: 256 * 1024 })],
]);

/** Each user's connection is its own simulated account (sandbox_at_<account>.<secret>), so quotas and duplicate rules are per target. */
const credentials = (userId: string, platform: Platform): Credentials => ({
  connectionId: `con_${userId}_${platform}`,
  mode: 'sandbox',
  accountId: null,
  accountName: 'Sandbox',
  pageId: platform === 'facebook' ? `9${userId.replace(/\D/g, '').padStart(8, '0')}` : null,
  pageName: platform === 'facebook' ? 'Sandbox page' : null,
  secrets: { access_token: `sandbox_at_${userId}${platform}.crashsecret`, refresh_token: `sandbox_rt_${userId}${platform}.crashsecret` },
  tokenExpiresAt: Date.now() + 30 * 86_400_000,
  refreshExpiresAt: null,
  tokenObtainedAt: Date.now() - 2 * 86_400_000,
  meta: { sandbox: true },
});

const files = {
  jpg: { kind: 'image' as const, mimeType: 'image/jpeg', path: join(mediaDir, 'a.jpg') },
  mp4: { kind: 'video' as const, mimeType: 'video/mp4', path: join(mediaDir, 'a.mp4') },
};

await runPublishingChild(
  db,
  {
    adapters,
    connections: credentialsOnly(credentials),
    media: {
      resolve: async (_user, urls) =>
        urls.map((url): MediaItem => {
          const f = url.endsWith('.mp4') ? files.mp4 : files.jpg;
          return { url, kind: f.kind, mimeType: f.mimeType, size: statSync(f.path).size, publicUrl: url, path: f.path, sha256: null };
        }),
    },
    scheduler: { sweepMs: 500 },
    publisher: {
      concurrency: 16,
      connectionConcurrency: 4,
      leaseMs: 10_000,
      sweepMs: 500,
      backoff: { baseMs: 300, capMs: 2_000 },
      sandboxBaseUrl: (_platform, host) => `${simUrl}/${host}`,
    },
  },
  () => server.close(),
);
