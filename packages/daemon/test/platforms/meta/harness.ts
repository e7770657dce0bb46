import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { ContentType, Platform } from '@socialpub/core';
import type { Credentials, MediaItem, PublishContext, TokenUpdate } from '../../../src/platforms/adapter';
import { MetaSimulator } from '../../../src/platforms/meta/sim/simulator';
import type { MetaSimConfig } from '../../../src/platforms/meta/sim/core';
import type { DB } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { sandboxStore } from '../../support/sandbox-records';

/** A Meta simulator on 127.0.0.1 (port 0) with a ManualClock. */
export async function startSim(opts: { config?: Partial<MetaSimConfig>; db?: DB; clock?: ManualClock } = {}) {
  const clock = opts.clock ?? new ManualClock();
  const sim = new MetaSimulator({ clock, store: sandboxStore(opts.db ?? null), config: opts.config });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: sim.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    clock,
    sim,
    state: sim.state,
    url,
    baseUrl: (host: string) => `${url}/${host}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
    /** The recorded requests to `path` (`/<account>/<edge>`) made with `method`. */
    requests: (path: string, method = 'POST') => sim.state.requests.filter((r) => r.path === path && r.method === method),
    /** `METHOD host path` of every request, consecutive identical status polls collapsed. */
    sequence(opts2: { collapsePolls?: boolean } = {}) {
      const lines = sim.state.requests.map((r) => `${r.method} ${r.host} ${r.path}`);
      if (opts2.collapsePolls === false) return lines;
      return lines.filter((l, i) => !(l.startsWith('GET') && lines[i - 1] === l));
    },
  };
}

export type Sim = Awaited<ReturnType<typeof startSim>>;

const dir = mkdtempSync(join(tmpdir(), 'sp-meta-'));
let n = 0;

/** A local media file (bytes on disk) with an optional public URL. */
export function mediaFile(kind: 'image' | 'video', opts: { publicUrl?: string | null; bytes?: number } = {}): MediaItem {
  const ext = kind === 'image' ? 'jpg' : 'mp4';
  const path = join(dir, `m${++n}.${ext}`);
  writeFileSync(path, Buffer.alloc(opts.bytes ?? (kind === 'image' ? 2048 : 8192), n));
  const publicUrl = opts.publicUrl === undefined ? `https://cdn.example.com/media/m${n}.${ext}` : opts.publicUrl;
  return { url: publicUrl ?? `https://origin.example.com/m${n}.${ext}`, kind, mimeType: kind === 'image' ? 'image/jpeg' : 'video/mp4', size: opts.bytes ?? (kind === 'image' ? 2048 : 8192), publicUrl, path, sha256: null };
}

export interface TestContext extends PublishContext {
  saved: TokenUpdate[];
  expired: string[];
  checkpoints: Record<string, unknown>[];
}

/** A PublishContext over the simulator, with an in-memory checkpoint and token store. */
export function context(
  sim: Sim,
  o: { platform: Platform; type: ContentType; caption?: string; media?: MediaItem[]; credentials?: Partial<Credentials>; checkpoint?: Record<string, unknown>; options?: Record<string, unknown> },
): TestContext {
  const data: Record<string, unknown> = structuredClone(o.checkpoint ?? {});
  const saved: TokenUpdate[] = [];
  const expired: string[] = [];
  const checkpoints: Record<string, unknown>[] = [];
  const credentials: Credentials = {
    connectionId: 'con_test',
    mode: 'sandbox',
    accountId: o.platform === 'facebook' ? 'user1' : `${o.platform}-acct`,
    accountName: 'Test',
    pageId: o.platform === 'facebook' ? 'page1' : null,
    pageName: o.platform === 'facebook' ? 'Test page' : null,
    secrets: { access_token: 'sandbox_at_test' },
    tokenExpiresAt: null,
    refreshExpiresAt: null,
    tokenObtainedAt: null,
    meta: {},
    ...o.credentials,
  };
  const ctx: TestContext = {
    target: { id: 'tgt_1', jobId: 'job_1', platform: o.platform, type: o.type, caption: o.caption ?? '', options: o.options ?? {}, dueAt: sim.clock.now(), attempt: 1, attemptStartedAt: sim.clock.now() },
    media: o.media ?? [],
    credentials,
    saveTokens: async (u) => {
      saved.push(u);
      Object.assign(credentials.secrets, u.secrets);
    },
    markConnectionExpired: async (reason) => void expired.push(reason),
    checkpoint: {
      data,
      // As the store saves checkpoints (SQLite json_patch, RFC 7396): objects merge, null deletes.
      save: async (patch) => {
        applyMergePatch(data, structuredClone(patch));
        checkpoints.push(structuredClone(data));
      },
    },
    baseUrl: sim.baseUrl,
    publicBaseUrl: 'https://socialpub.example.com',
    clock: sim.clock,
    signal: new AbortController().signal,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    saved,
    expired,
    checkpoints,
  };
  return ctx;
}

/**
 * Runs `work` to completion, moving the manual clock whenever the code under test is
 * parked on it (status polling), and letting real I/O run otherwise. No real sleeps.
 */
export async function drive<T>(clock: ManualClock, work: Promise<T>, stepMs = 1_000): Promise<T> {
  let settled = false;
  const p = work.finally(() => {
    settled = true;
  });
  p.catch(() => {});
  while (!settled) {
    if (clock.pending > 0) await clock.advance(stepMs);
    else await new Promise((r) => setImmediate(r));
  }
  return p;
}

/** RFC 7396 merge of `patch` into `target`, in place: what SQLite's json_patch does to a stored checkpoint. */
function applyMergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(patch)) {
    const old = target[k];
    if (v === null) delete target[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof old === 'object' && old !== null && !Array.isArray(old)) {
      applyMergePatch(old as Record<string, unknown>, v as Record<string, unknown>);
    } else target[k] = v;
  }
}
