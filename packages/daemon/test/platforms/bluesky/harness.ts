import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentType, ThreadPart } from '@socialpub/core';
import type { Credentials, RepliesContext, MediaItem, PublishContext, TokenUpdate } from '../../../src/platforms/adapter';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import type { ManualClock } from '../../../src/util/clock';
import { flushMicrotasks } from '../../../src/util/clock';

const dir = mkdtempSync(join(tmpdir(), 'sp-bsky-'));
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);
export const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom', 'latin1'), Buffer.alloc(4_000, 9)]);

let n = 0;
/** A media item backed by a file of `bytes`. */
export function mediaItem(kind: 'image' | 'video', bytes: Buffer = kind === 'image' ? JPEG : MP4): MediaItem {
  const path = join(dir, `m${++n}.${kind === 'image' ? 'jpg' : 'mp4'}`);
  writeFileSync(path, bytes);
  return { url: `https://cdn.example.com/${n}`, kind, mimeType: kind === 'image' ? 'image/jpeg' : 'video/mp4', size: bytes.length, publicUrl: null, path, sha256: null };
}

/** A sandbox connection (its own simulated account per key). */
export function sandboxCreds(key = 'bskytest'): Credentials {
  forgetRefreshes();
  return {
    connectionId: `con_${key}`,
    mode: 'sandbox',
    accountId: null,
    accountName: 'Sandbox',
    pageId: null,
    pageName: null,
    secrets: { access_token: `sandbox_at_${key}.0123456789`, refresh_token: `sandbox_rt_${key}.0123456789` },
    tokenExpiresAt: null,
    refreshExpiresAt: null,
    tokenObtainedAt: 0,
    meta: { sandbox: true },
  };
}

export interface CtxOptions {
  id?: string;
  caption: string;
  media?: MediaItem[];
  options?: Record<string, unknown>;
  credentials?: Credentials;
  checkpoint?: Record<string, unknown>;
  thread?: ThreadPart[];
  threadMedia?: MediaItem[][];
  firstComment?: string | null;
}

export interface TestCtx extends PublishContext {
  saved: TokenUpdate[];
  expired: string[];
}

/** A PublishContext over the simulator's origins, with a checkpoint kept in memory. */
export function context(clock: ManualClock, baseUrl: (host: string) => string, o: CtxOptions): TestCtx {
  const data: Record<string, unknown> = { ...(o.checkpoint ?? {}) };
  const saved: TokenUpdate[] = [];
  const expired: string[] = [];
  const credentials = o.credentials ?? sandboxCreds();
  let fuData: Record<string, unknown> = {};
  const followUps: RepliesContext | undefined =
    o.thread || o.firstComment
      ? {
          thread: o.thread ?? [],
          threadMedia: o.threadMedia ?? [],
          firstComment: o.firstComment ?? null,
          get data() {
            return fuData;
          },
          async save(patch, checkpoint) {
            fuData = { ...fuData, ...patch };
            if (checkpoint) Object.assign(data, checkpoint);
          },
        }
      : undefined;
  return {
    target: { id: o.id ?? `tgt_${Math.random().toString(36).slice(2)}`, jobId: 'job_1', platform: 'bluesky', type: 'post' as ContentType, caption: o.caption, options: o.options ?? {}, dueAt: clock.now(), attempt: 1, attemptStartedAt: clock.now() },
    media: o.media ?? [],
    credentials,
    saveTokens: async (u) => {
      saved.push(u);
      for (const [k, v] of Object.entries(u.secrets)) if (v) credentials.secrets[k] = v;
      if (u.tokenExpiresAt !== undefined) credentials.tokenExpiresAt = u.tokenExpiresAt;
      if (u.tokenObtainedAt !== undefined) credentials.tokenObtainedAt = u.tokenObtainedAt;
    },
    markConnectionExpired: async (reason) => {
      expired.push(reason);
    },
    checkpoint: {
      data,
      async save(patch) {
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) delete data[k];
          else data[k] = v;
        }
      },
    },
    ...(followUps ? { replies: followUps } : {}),
    baseUrl,
    publicBaseUrl: null,
    clock,
    signal: new AbortController().signal,
    log: { debug() {}, info() {}, warn() {}, error() {}, child() { return this; } } as unknown as PublishContext['log'],
    saved,
    expired,
  };
}

/** Runs `p` while moving the clock, so sleeps (video polling) pass. */
export async function drive<T>(clock: ManualClock, p: Promise<T>, stepMs = 500): Promise<T> {
  let done = false;
  const settled = p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void settled.then(() => (done = true));
  for (let i = 0; i < 2_000 && !done; i++) {
    await flushMicrotasks(10);
    for (let t = 0; t < 5 && !done; t++) await new Promise((r) => setTimeout(r, 1));
    if (!done) await clock.advance(stepMs);
  }
  const r = await settled;
  if (!r.ok) throw r.error;
  return r.value;
}
