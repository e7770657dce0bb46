import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { ContentType, Platform } from '@socialpub/core';
import type { Credentials, MediaItem, PublishContext, TokenUpdate } from '../../../src/platforms/adapter';
import type { ConnectionInput } from '../../../src/store/connections';
import { ManualClock as ManualClockBase, type ManualClock } from '../../../src/util/clock';
import { applyMergePatch } from '../../../src/platforms/shared/merge-patch';

/**
 * Test harness shared by the X, TikTok and YouTube tests: serves simulators over real
 * HTTP on 127.0.0.1 (one path prefix per simulated host, as the daemon's /sandbox does)
 * and builds PublishContexts with an in-memory checkpoint and token store.
 */

export interface SimServer {
  url: string;
  baseUrl(host: string): string;
  close(): Promise<void>;
}

export async function serveSimulators(apps: Array<{ host: string; app: Hono }>): Promise<SimServer> {
  const root = new Hono();
  for (const { host, app } of apps) root.route(`/${host}`, app);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: (host) => `${url}/${host}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export interface TestContext extends PublishContext {
  saved: TokenUpdate[];
  expired: string[];
  checkpointHistory: Array<Record<string, unknown>>;
}

export interface ContextInput {
  platform: Platform;
  type: ContentType;
  caption: string;
  media?: MediaItem[];
  secrets: Record<string, string | undefined>;
  clock: ManualClock;
  server: SimServer;
  meta?: Record<string, unknown>;
  /** The job's platform_options for this platform. */
  options?: Record<string, unknown>;
  accountId?: string | null;
  accountName?: string | null;
  tokenExpiresAt?: number | null;
  tokenObtainedAt?: number | null;
  checkpoint?: Record<string, unknown>;
  connectionId?: string;
  publicBaseUrl?: string | null;
  attemptStartedAt?: number;
  /** Makes saveTokens fail (a crash while storing). */
  failSaveTokens?: boolean;
}

let seq = 0;

export function makeContext(input: ContextInput): TestContext {
  const data: Record<string, unknown> = { ...(input.checkpoint ?? {}) };
  const history: Array<Record<string, unknown>> = [];
  const credentials: Credentials = {
    connectionId: input.connectionId ?? `con_test_${++seq}`,
    mode: 'sandbox',
    accountId: input.accountId ?? null,
    accountName: input.accountName ?? null,
    pageId: null,
    pageName: null,
    secrets: { ...input.secrets },
    tokenExpiresAt: input.tokenExpiresAt ?? null,
    refreshExpiresAt: null,
    tokenObtainedAt: input.tokenObtainedAt ?? null,
    meta: input.meta ?? {},
  };
  const ctx: TestContext = {
    target: {
      id: `tgt_${seq}`,
      jobId: `job_${seq}`,
      platform: input.platform,
      type: input.type,
      caption: input.caption,
      options: input.options ?? {},
      dueAt: input.clock.now(),
      attempt: 1,
      attemptStartedAt: input.attemptStartedAt ?? input.clock.now(),
    },
    media: input.media ?? [],
    credentials,
    saved: [],
    expired: [],
    checkpointHistory: history,
    async saveTokens(update) {
      if (input.failSaveTokens) throw new Error('simulated crash while storing tokens');
      ctx.saved.push(update);
    },
    async markConnectionExpired(reason) {
      ctx.expired.push(reason);
    },
    checkpoint: {
      data,
      async save(patch) {
        // As the store merges it (json_patch): a null member inside a saved value is dropped, as after a restart.
        applyMergePatch(data, patch);
        history.push(structuredClone(patch));
      },
    },
    baseUrl: (host) => input.server.baseUrl(host),
    publicBaseUrl: input.publicBaseUrl ?? null,
    clock: input.clock,
    signal: new AbortController().signal,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  };
  return ctx;
}

const dir = mkdtempSync(join(tmpdir(), 'socialpub-platform-test-'));

/** Writes bytes to a temp file and describes them as a media item. */
export function mediaFile(name: string, bytes: Buffer, kind: 'image' | 'video', mimeType: string, publicUrl: string | null = null): MediaItem {
  const path = join(dir, `${++seq}-${name}`);
  writeFileSync(path, bytes);
  return { url: `https://example.com/${name}`, kind, mimeType, size: bytes.length, publicUrl, path, sha256: null };
}

/** Bytes that start like a real file of that type (simulators sniff magic numbers). */
export function fakeBytes(type: 'png' | 'jpeg' | 'gif' | 'mp4', size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + 7) & 0xff;
  const head =
    type === 'png'
      ? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      : type === 'jpeg'
        ? Buffer.from([0xff, 0xd8, 0xff, 0xe0])
        : type === 'gif'
          ? Buffer.from('GIF89a', 'latin1')
          : Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);
  head.copy(b, 0);
  return b;
}

/** Runs `work` while advancing the manual clock whenever the code under test is parked in a sleep. */
export async function driveClock<T>(clock: ManualClock, work: Promise<T>, stepMs = 1000, maxSteps = 10_000): Promise<T> {
  let done = false;
  let result: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  work.then(
    (value) => {
      done = true;
      result = { ok: true, value };
    },
    (error: unknown) => {
      done = true;
      result = { ok: false, error };
    },
  );
  for (let i = 0; i < maxSteps && !done; i++) {
    await new Promise<void>((r) => setImmediate(r));
    if (done) break;
    if (clock.pending > 0) await clock.advance(stepMs);
    else await new Promise<void>((r) => setTimeout(r, 1));
  }
  if (!result) throw new Error('work did not finish');
  if (!result.ok) throw result.error;
  return result.value;
}

/** A ManualClock that remembers every sleep it was asked for (to check waits such as check_after_secs). */
export class RecordingClock extends ManualClockBase {
  readonly sleeps: number[] = [];
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return super.sleep(ms, signal);
  }
}

/** Terminal I/O for connect flows: queued answers, printed lines, and a "browser" that follows the consent redirect. */
export function fakeIO(answers: string[] = []) {
  const printed: string[] = [];
  const opened: string[] = [];
  const io = {
    printed,
    opened,
    prompt: async (question: string) => {
      const a = answers.shift();
      if (a === undefined) throw new Error(`unexpected prompt: ${question}`);
      return a;
    },
    choose: async <T,>(_q: string, choices: { label: string; value: T }[]) => choices[0]!.value,
    print: (line: string) => void printed.push(line),
    openBrowser: async (url: string) => {
      opened.push(url);
      // The simulated user consents; the simulator redirects to the loopback listener.
      const res = await fetch(url, { redirect: 'follow' });
      await res.text();
    },
  };
  return io;
}

/** A connections repository stand-in that keeps what connect saved. */
export function fakeConnections() {
  const saved: Array<{ userId: string; platform: string; input: ConnectionInput }> = [];
  return {
    saved,
    save(userId: string, platform: 'twitter' | 'tiktok' | 'youtube' | 'mastodon', input: ConnectionInput) {
      saved.push({ userId, platform, input });
      return { id: `con_${platform}`, userId, platform, label: 'default', isDefault: true, mode: input.mode, status: 'active' as const, statusReason: null, accountId: input.accountId ?? null, accountName: input.accountName ?? null, pageId: null, pageName: null, tokenExpiresAt: input.tokenExpiresAt ?? null, refreshExpiresAt: input.refreshExpiresAt ?? null, tokenObtainedAt: input.tokenObtainedAt ?? null, meta: input.meta ?? {}, createdAt: 0, updatedAt: 0 };
    },
  };
}
