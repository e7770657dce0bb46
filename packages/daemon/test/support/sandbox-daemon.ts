import type { Platform, SandboxFaults } from '@socialpub/core';
import type { Defer } from './cleanups';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { expect } from 'vitest';
import { openAdmin } from '../../src/admin/index';
import { resolveConfig } from '../../src/config';
import { createMedia } from '../../src/create-media';
import { createAdapters } from '../../src/platforms/registry';
import { createSandboxApp, sandboxBaseUrl } from '../../src/platforms/sandbox';
import type { AppliedFault } from '../../src/platforms/sandbox/fault-stage';
import { Publisher } from '../../src/publisher/publisher';
import { Scheduler } from '../../src/scheduler/scheduler';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { createTargetQueue } from '../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { testApp } from './test-app';

const API = '/api/agents/v1';
export const PUBLIC = 'https://socialpub.example.test';
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);
/** An MP4 head (ftyp box) followed by filler: enough for media preparation to sniff it as video/mp4. */
export const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(300_000, 9)]);

export interface SandboxDaemonOptions {
  /** Each gets a sandbox connection for me@example.com, whose API key `call` uses. */
  platforms: readonly Platform[];
  /** Replaces the sandbox's simulators (default: all of them). */
  simulators?: Parameters<typeof createSandboxApp>[1];
  /** The ManualClock's first instant. */
  start?: number;
  /** Replaces the real adapters (e.g. with shorter request timeouts). */
  adapters?: ReturnType<typeof createAdapters>;
  /** Faults every sandbox call meets (as from SOCIALPUB_SANDBOX_* or config.json). */
  sandboxFaults?: SandboxFaults;
  /** Told of every fault the sandbox applies. */
  onFault?: (fault: AppliedFault) => void;
}

export type SandboxDaemon = Awaited<ReturnType<typeof startSandboxDaemon>>;

/** The daemon's parts wired as daemon.ts wires them, over a ManualClock, with the sandbox simulators; torn down through `defer`. */
export async function startSandboxDaemon(defer: Defer, opts: SandboxDaemonOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'sp-e2e-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const clock = new ManualClock(opts.start);
  const db = openDatabase(join(dir, 'socialpub.db'));
  defer(() => db.close());
  const secrets = SecretBox.fromKeyFile(join(dir, 'secret.key'));
  const store = createStore(db, { secrets, clock });
  const config = resolveConfig({ dataDir: dir, publicUrl: PUBLIC }, {});
  const media = createMedia({ store, dir: join(dir, 'media'), publicBaseUrl: PUBLIC, clock, allowPrivate: true });
  defer(() => media.stop());
  const queue = createTargetQueue(db);
  const adapters = opts.adapters ?? createAdapters(config.platforms);
  // eslint-disable-next-line prefer-const
  let publisher: Publisher;
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => publisher.dispatch(id) });
  // Known once listening; take-downs (like the publisher) reach the simulators through it.
  let url = '';
  // As createPublishing's hooks: changed targets reach the wheel and the publisher's preparer.
  const hooks = { targetsChanged: (ids: readonly string[]) => (scheduler.targetsChanged(ids), publisher.targetsChanged(ids)), status: () => scheduler.status() };
  const sandbox = createSandboxApp({ store: store.sandbox, clock }, opts.simulators, { faults: () => opts.sandboxFaults ?? {}, ...(opts.onFault ? { onFault: opts.onFault } : {}) });
  const { app, services } = testApp({
    db, store, config, clock, secrets, scheduler: hooks, adapters, mediaLookup: media.lookup, mediaRoutes: media.mediaRoutes, fileRoutes: media.fileRoutes,
    sandbox,
    sandboxBaseUrl: (_p, host) => sandboxBaseUrl(url, host),
    // As daemon.ts: the analytics collector waits while a connection's publishing has the floor (tests call collectDue()).
    publishingBusy: (userId, platform, connectionId) => publisher.connectionBusy(userId, platform, connectionId),
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  defer(() => new Promise<void>((r) => server.close(() => r())));
  publisher = new Publisher({ queue, clock, adapters, connections: store.credentials, media: media.resolver, scheduler, publicBaseUrl: PUBLIC, sandboxBaseUrl: (_p, host) => sandboxBaseUrl(url, host) });
  publisher.start();
  await scheduler.start();
  defer(async () => {
    await scheduler.stop();
    await publisher.stop(0);
  });

  const admin = openAdmin(dir, { clock });
  defer(() => admin.close?.());
  const key = admin.createKey({ email: 'me@example.com' }).api_key;
  for (const p of opts.platforms) admin.addSandboxConnection(p, { email: 'me@example.com' });

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${API}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };
  // The inbox's loop is not started: tests run its rounds (inbox.runOnce) as they move the clock.
  defer(() => services.inbox.stop());
  return { clock, db, media, call, admin, store, url, key, inbox: services.inbox, sandbox, services, sandboxApp: sandbox, publisher: () => publisher };
}

/** Serves MP4 for any path ending in .mp4 and JPEG for every other; returns its base URL. */
export async function serveSamples(defer: Defer): Promise<string> {
  const server = createServer((req, res) => {
    const video = req.url?.endsWith('.mp4') ?? false;
    const body = video ? MP4 : JPEG;
    res.writeHead(200, { 'content-type': video ? 'video/mp4' : 'image/jpeg', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  defer(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Prepares `url` through the daemon's media API and returns its prepared (public) URL. */
export async function prepareMedia(w: SandboxDaemon, url: string): Promise<string> {
  const prep = await w.call('POST', '/media/prepare', { urls: [url] });
  expect(prep.status, JSON.stringify(prep.body)).toBeLessThan(300);
  const taskId = String(prep.body.task_id ?? (prep.body.data as Record<string, unknown> | undefined)?.task_id);
  await w.media.service.settled(taskId);
  const status = await w.call('GET', `/media/status/${taskId}`);
  const prepared = JSON.stringify(status.body).match(/"prepared_url":"([^"]+)"/)?.[1];
  expect(prepared, JSON.stringify(status.body)).toMatch(new RegExp(`^${PUBLIC}/`));
  return prepared!;
}

/** Advances the clock a step at a time, letting the publisher run between steps, until `done` or `maxSteps` steps. */
export async function advanceUntil(clock: ManualClock, done: () => boolean, maxSteps: number, stepMs = 1_000): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await clock.advance(stepMs);
    await flushMicrotasks(20);
    // Sockets and file reads complete in real time, not clock time: give them a moment per
    // step (returning as soon as `done`), so on a loaded machine the clock steps do not run
    // out while an upload is still on its way.
    for (let t = 0; t < 15 && !done(); t++) await new Promise((r) => setTimeout(r, 2));
  }
}

/** A job's target as the platform end-to-end tests read it. */
export interface JobTarget {
  platform: string;
  status: string;
  post_id: string | null;
  post_url: string | null;
  error_message: string | null;
  published_at: number | null;
}

/** A job's targets, by platform. */
export const targetsOf = (w: SandboxDaemon, jobId: string) =>
  w.db.prepare('SELECT platform, status, post_id, post_url, error_message, published_at FROM targets WHERE job_id = ? ORDER BY platform').all(jobId) as JobTarget[];

/** Whether every target of the job has come to an end (for advanceUntil). */
export const settled = (w: SandboxDaemon, jobId: string) => () => targetsOf(w, jobId).every((t) => ['published', 'failed', 'needs_review', 'removed'].includes(t.status));

/** POST /content/publish, which must accept the job; answers its id. */
export async function publish(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.job_id);
}
