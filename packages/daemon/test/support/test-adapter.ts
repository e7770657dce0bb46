/**
 * An in-process platform adapter with fault injection and a ledger of what it "posted",
 * for the scheduler, publisher and crash tests. Test code builds it and hands it to the
 * daemon (`startDaemon(config, { adapters })`, `createPublishing({ adapters })`); the
 * production code never loads it.
 */
import type { Platform } from '@socialpub/core';
import type { Credentials, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../../src/platforms/adapter';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { PLATFORMS } from '@socialpub/core';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError } from '../../src/platforms/errors';

/** One post the test platform made. */
export interface LedgerEntry {
  targetId: string;
  platform: Platform;
  postId: string;
  attempt: number;
  caption: string;
  mediaCount: number;
  at: number;
}

/** Where the test platform records its posts: the "platform side" truth that reconcile reads. */
export interface Ledger {
  append(entry: LedgerEntry): void;
  entries(): readonly LedgerEntry[];
  find(targetId: string): LedgerEntry | undefined;
}

export class MemoryLedger implements Ledger {
  readonly #entries: LedgerEntry[] = [];
  append(entry: LedgerEntry): void {
    this.#entries.push(entry);
  }
  entries(): readonly LedgerEntry[] {
    return this.#entries;
  }
  find(targetId: string): LedgerEntry | undefined {
    return this.#entries.find((e) => e.targetId === targetId);
  }
}

/**
 * An append-only JSON-lines file, each line written with one write(2) and fsync'd before
 * the post counts as made, so the record outlives a SIGKILL of the daemon and a double
 * post shows up as two lines for one target across restarts. The file is the platform:
 * what is read (entries, find) is re-read from it, so several processes publishing into one
 * ledger (several daemons, bench/burst's cluster mode) each see the others' posts, as a
 * real platform shows them.
 */
export class FileLedger implements Ledger {
  readonly #path: string;
  readonly #entries: LedgerEntry[] = [];
  /** Bytes of the file already parsed into #entries (complete lines only). */
  #read = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Every complete line of a ledger file (a torn last line, if any, is ignored). */
  static read(path: string): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as LedgerEntry);
      } catch {
        /* torn last line */
      }
    }
    return out;
  }

  /** Takes in the lines appended since the last read, by this process or any other. */
  #refresh(): void {
    if (!existsSync(this.#path)) return;
    const size = statSync(this.#path).size;
    if (size <= this.#read) return;
    const fd = openSync(this.#path, 'r');
    try {
      const buf = Buffer.alloc(size - this.#read);
      readSync(fd, buf, 0, buf.length, this.#read);
      const text = buf.toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end < 0) return;
      for (const line of text.slice(0, end).split('\n')) {
        if (!line) continue;
        try {
          this.#entries.push(JSON.parse(line) as LedgerEntry);
        } catch {
          /* a line torn by a SIGKILL mid-write: never completed, so never a post */
        }
      }
      this.#read += Buffer.byteLength(text.slice(0, end + 1));
    } finally {
      closeSync(fd);
    }
  }

  append(entry: LedgerEntry): void {
    const fd = openSync(this.#path, 'a');
    try {
      writeSync(fd, JSON.stringify(entry) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  entries(): readonly LedgerEntry[] {
    this.#refresh();
    return this.#entries;
  }

  find(targetId: string): LedgerEntry | undefined {
    this.#refresh();
    return this.#entries.find((e) => e.targetId === targetId);
  }
}

/** A fault the next matching publish (or reconcile) meets. */
export type Fault =
  /** A 5xx or network error before anything was created. */
  | { kind: 'retryable'; after?: number; platformCode?: string; message?: string }
  /** The platform's rate limit, until an epoch ms. */
  | { kind: 'rate_limited'; until: number; platformCode?: string; appliesTo?: 'connection' | 'app' }
  | { kind: 'permanent'; platformCode?: string; message?: string }
  | { kind: 'auth_expired'; message?: string }
  /** A timeout around the publishing call; `posted` says whether the post was made anyway. */
  | { kind: 'outcome_unknown'; posted: boolean }
  /** Posts, then never answers until the attempt is aborted (a crash or hang mid-flight). */
  | { kind: 'hang_after_post' }
  /** Posts, then throws a plain Error (a bug after the publishing call). */
  | { kind: 'throw_after_post' };

export type ReconcileFault = { kind: 'unknown' } | { kind: 'retryable' } | { kind: 'throw' };

export interface TestAdapterOptions {
  platform: Platform;
  ledger: Ledger;
  /** Random latency before posting, in ms on the context's clock ([min, max]; default none). */
  latencyMs?: [number, number];
  /** Random latency after posting, before answering (the window where a crash leaves a post unrecorded). */
  afterPostMs?: [number, number];
}

interface Injected<F> {
  fault: F;
  targetId: string | null;
  times: number;
}

/** The adapter itself. Faults are queued with inject()/injectReconcile() and consumed in order. */
export class TestAdapter implements PlatformAdapter {
  readonly platform: Platform;
  readonly ledger: Ledger;
  readonly #latency: [number, number] | null;
  readonly #afterPost: [number, number] | null;
  readonly #faults: Injected<Fault>[] = [];
  readonly #reconcileFaults: Injected<ReconcileFault>[] = [];
  /** Every publish call seen, in order (target id and attempt). */
  readonly calls: { targetId: string; attempt: number; at: number }[] = [];

  constructor(opts: TestAdapterOptions) {
    this.platform = opts.platform;
    this.ledger = opts.ledger;
    this.#latency = opts.latencyMs ?? null;
    this.#afterPost = opts.afterPostMs ?? null;
  }

  /** The next `times` publishes (of `targetId`, or of any target) meet `fault`. */
  inject(fault: Fault, opts: { targetId?: string; times?: number } = {}): void {
    this.#faults.push({ fault, targetId: opts.targetId ?? null, times: opts.times ?? 1 });
  }

  injectReconcile(fault: ReconcileFault, opts: { targetId?: string; times?: number } = {}): void {
    this.#reconcileFaults.push({ fault, targetId: opts.targetId ?? null, times: opts.times ?? 1 });
  }

  validate(): [] {
    return [];
  }

  async publish(ctx: PublishContext): Promise<PublishOutcome> {
    const { target, clock } = ctx;
    this.calls.push({ targetId: target.id, attempt: target.attempt, at: clock.now() });
    if (this.#latency) await pause(ctx, this.#latency);
    const fault = take(this.#faults, target.id);
    switch (fault?.kind) {
      case 'retryable':
        throw new RetryableError(fault.message ?? 'test platform: 503 Service Unavailable', { after: fault.after ?? null, platformCode: fault.platformCode ?? '503' });
      case 'rate_limited':
        throw new RateLimitedError('test platform: 429 Too Many Requests', {
          until: fault.until,
          platformCode: fault.platformCode ?? '429',
          ...(fault.appliesTo ? { appliesTo: fault.appliesTo } : {}),
        });
      case 'permanent':
        throw new PermanentError(fault.message ?? 'test platform: media rejected', { platformCode: fault.platformCode ?? '400' });
      case 'auth_expired':
        throw new AuthExpiredError(fault.message ?? 'test platform: token revoked', { platformCode: '401' });
      case 'outcome_unknown':
        if (fault.posted) this.#post(ctx);
        throw new OutcomeUnknownError('test platform: timed out waiting for the publish call');
      default:
        break;
    }
    // Record what is about to be sent before sending it, as a real adapter must.
    await ctx.checkpoint.save({ step: 'posting' });
    const entry = this.#post(ctx);
    if (this.#afterPost) await pause(ctx, this.#afterPost);
    await ctx.checkpoint.save({ step: 'posted', post_id: entry.postId });
    if (fault?.kind === 'hang_after_post') {
      await new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
    }
    if (fault?.kind === 'throw_after_post') throw new Error('test platform: bug after posting');
    return { postId: entry.postId, postUrl: postUrl(entry), publishedAt: entry.at };
  }

  async reconcile(ctx: PublishContext): Promise<ReconcileResult> {
    const fault = take(this.#reconcileFaults, ctx.target.id);
    if (fault?.kind === 'unknown') return { state: 'unknown', reason: 'test platform: cannot tell whether the post exists' };
    if (fault?.kind === 'retryable') throw new RetryableError('test platform: 503 while looking up posts');
    if (fault?.kind === 'throw') throw new Error('test platform: lookup crashed');
    const entry = this.ledger.find(ctx.target.id);
    if (entry) return { state: 'published', outcome: { postId: entry.postId, postUrl: postUrl(entry), publishedAt: entry.at } };
    return { state: 'not_published', reason: 'test platform: no post for this target' };
  }

  #post(ctx: PublishContext): LedgerEntry {
    const entry: LedgerEntry = {
      targetId: ctx.target.id,
      platform: this.platform,
      postId: `test_${ctx.target.id}_${ctx.target.attempt}`,
      attempt: ctx.target.attempt,
      caption: ctx.target.caption,
      mediaCount: ctx.media.length,
      at: ctx.clock.now(),
    };
    this.ledger.append(entry);
    return entry;
  }
}

function pause(ctx: PublishContext, [min, max]: [number, number]): Promise<void> {
  return ctx.clock.sleep(min + Math.floor(Math.random() * (max - min + 1)), ctx.signal);
}

function take<F>(faults: Injected<F>[], targetId: string): F | undefined {
  const i = faults.findIndex((f) => f.targetId === null || f.targetId === targetId);
  if (i < 0) return undefined;
  const f = faults[i] as Injected<F>;
  if (--f.times <= 0) faults.splice(i, 1);
  return f.fault;
}

const postUrl = (e: LedgerEntry) => `https://test.invalid/${e.platform}/${e.postId}`;

/** One test adapter per platform, sharing one ledger. */
export function createTestAdapters(ledger: Ledger, opts: Omit<TestAdapterOptions, 'platform' | 'ledger'> = {}): Map<Platform, TestAdapter> {
  return new Map(PLATFORMS.map((platform) => [platform, new TestAdapter({ ...opts, platform, ledger })]));
}

/**
 * For a test's child process (test/crash/daemon-child.ts): with
 * `SOCIALPUB_TEST_ADAPTER=/path/to/ledger.jsonl`, every platform publishes through the test
 * adapter into that file instead of the network; optional
 * `SOCIALPUB_TEST_ADAPTER_LATENCY_MS=min,max` adds a random delay before each post and
 * `SOCIALPUB_TEST_ADAPTER_AFTER_POST_MS=min,max` one after it. Returns null when the
 * variable is not set (the normal case).
 */
export function adaptersFromEnv(env: NodeJS.ProcessEnv = process.env): Map<Platform, PlatformAdapter> | null {
  const path = env.SOCIALPUB_TEST_ADAPTER;
  if (!path) return null;
  const range = (text: string | undefined): [number, number] | undefined => {
    const r = text?.split(',').map(Number);
    return r && r.length === 2 && r.every((n) => Number.isFinite(n) && n >= 0) ? (r as [number, number]) : undefined;
  };
  const latencyMs = range(env.SOCIALPUB_TEST_ADAPTER_LATENCY_MS);
  const afterPostMs = range(env.SOCIALPUB_TEST_ADAPTER_AFTER_POST_MS);
  return createTestAdapters(new FileLedger(path), { ...(latencyMs ? { latencyMs } : {}), ...(afterPostMs ? { afterPostMs } : {}) });
}

/** Credentials of a sandbox connection `con_<user>_<platform>` with no secrets (what the test adapter needs). */
export function sandboxCredentials(userId: string, platform: Platform, accountName: string): Credentials {
  return {
    connectionId: `con_${userId}_${platform}`,
    mode: 'sandbox',
    accountId: userId,
    accountName,
    pageId: null,
    pageName: null,
    secrets: {},
    tokenExpiresAt: null,
    refreshExpiresAt: null,
    tokenObtainedAt: null,
    meta: {},
  };
}
