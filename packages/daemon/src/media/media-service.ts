import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  formatInstant,
  MAX_MEDIA_BYTES,
  MEDIA_LIBRARY_MAX,
  MEDIA_LIFETIME_MS,
  MEDIA_TASK_DEADLINE_MS,
  type FailedFile,
  type MediaLibrary,
  type MediaLibraryFile,
  type MediaStatus,
  type PreparedFile,
} from '@socialpub/core';
import type { Logger } from '../util/logger';
import { systemClock, type Clock } from '../util/clock';
import { newId, randomToken } from '../util/ids';
import { AddressGuard } from '../net/address-guard';
import { downloadToFile, type DownloadResult } from './download';
import { MediaError, toMediaError } from '../net/media-error';
import type { MediaStore, FileRow, FileWithUser, TaskRow } from '../store/media-files';
import { receiveUpload, type ReceivedFile } from './receive-upload';
import { resolveSource } from './resolve-source';
import { DEFAULT_SHARE_HOSTS, type ShareHosts } from './share-hosts';
import { Slots } from './slots';

export interface MediaServiceOptions {
  /** media_tasks and media_files (store.media). */
  files: MediaStore;
  /** The media dir (prepared files in files/, partial downloads in tmp/). */
  dir: string;
  /**
   * Base of prepared URLs: `<publicBaseUrl>/files/<token>/<name>`. A function when it is
   * only known once the server listens (the default is the listen address).
   */
  publicBaseUrl: string | (() => string);
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: a guard over the system resolver, private networks refused unless `allowPrivate`. */
  guard?: AddressGuard;
  /** Used only when no guard is given. Default false. */
  allowPrivate?: boolean;
  /** Default: the share services' real hosts. */
  hosts?: ShareHosts;
  /** Downloads at once, across tasks and publish-time fetches. Default 3. */
  concurrency?: number;
  /** Default 500 MB. */
  maxBytes?: number;
  /** Per task, from its creation; survives restarts. Default 10 minutes. */
  deadlineMs?: number;
  /** A prepared file's lifetime. Default 24 h. */
  lifetimeMs?: number;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  log?: Logger;
}

/** An uploaded body on disk in tmp/, not yet recorded. */
export interface ReceivedUpload extends ReceivedFile {
  part: string;
}

export interface MediaEvents {
  /** A file reached a state: fetching, ready, failed, or pending again after a shutdown. */
  file: [{ taskId: string; fileId: string; status: 'fetching' | 'ready' | 'failed' | 'pending' }];
  /** A task finished (completed or failed). */
  task: [{ taskId: string; status: 'completed' | 'failed' }];
}

/** Why a task's downloads were stopped by close(): they resume at the next start. */
class Shutdown extends Error {
  override name = 'Shutdown';
}

const TOKEN_LENGTH = 32; // ~165 bits: unguessable
const TOKEN_IN_URL = new RegExp(`/files/([0-9a-z]{${TOKEN_LENGTH}})/[^/]+$`);

const noopLog: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Media preparation: tasks of 1 to 10 URLs, each resolved, fetched through the safe
 * path, sniffed and stored under an unguessable token. Tasks live in SQLite and resume
 * after a restart (`resume()` at start); each has a hard deadline from its creation.
 */
export class MediaService {
  readonly store: MediaStore;
  readonly filesDir: string;
  readonly tmpDir: string;
  readonly #publicBaseUrl: () => string;
  readonly clock: Clock;
  readonly lifetimeMs: number;
  /** Progress events (logging, tests, live status). */
  readonly events = new EventEmitter<MediaEvents>();
  readonly #guard: AddressGuard;
  readonly #hosts: ShareHosts;
  readonly #slots: Slots;
  readonly #maxBytes: number;
  readonly #deadlineMs: number;
  readonly #timeouts: { headersTimeoutMs?: number; idleTimeoutMs?: number };
  readonly #log: Logger;
  readonly #running = new Map<string, { ctrl: AbortController; done: Promise<void> }>();
  /** Publish-time fetches still on disk, by path, with their creation time. */
  readonly #temp = new Map<string, number>();
  #closed = false;

  constructor(options: MediaServiceOptions) {
    this.store = options.files;
    this.filesDir = join(options.dir, 'files');
    this.tmpDir = join(options.dir, 'tmp');
    mkdirSync(this.filesDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    const base = options.publicBaseUrl;
    this.#publicBaseUrl = typeof base === 'function' ? base : () => base;
    this.clock = options.clock ?? systemClock;
    this.lifetimeMs = options.lifetimeMs ?? MEDIA_LIFETIME_MS;
    this.#guard = options.guard ?? new AddressGuard({ allowPrivate: options.allowPrivate ?? false });
    this.#hosts = options.hosts ?? DEFAULT_SHARE_HOSTS;
    this.#slots = new Slots(options.concurrency ?? 3);
    this.#maxBytes = options.maxBytes ?? MAX_MEDIA_BYTES;
    this.#deadlineMs = options.deadlineMs ?? MEDIA_TASK_DEADLINE_MS;
    this.#timeouts = { headersTimeoutMs: options.headersTimeoutMs, idleTimeoutMs: options.idleTimeoutMs };
    this.#log = options.log ?? noopLog;
  }

  /**
   * Checks each URL's form (scheme, share-link shape) without fetching. Returns the
   * problems by index; fetching problems are reported per file once the task runs.
   */
  checkUrls(urls: readonly string[]): { index: number; message: string }[] {
    const problems: { index: number; message: string }[] = [];
    urls.forEach((url, index) => {
      try {
        resolveSource(url, this.#hosts);
      } catch (err) {
        problems.push({ index, message: err instanceof Error ? err.message : String(err) });
      }
    });
    return problems;
  }

  /** Records a task (durably, before returning) and starts it in the background. */
  prepare(userId: string, urls: readonly string[]): { taskId: string } {
    if (this.#closed) throw new Error('media service is closed');
    const now = this.clock.now();
    const taskId = newId('task');
    const files = urls.map((url) => ({ id: newId('file'), url: url.trim(), token: randomToken(TOKEN_LENGTH) }));
    this.store.createTask({ id: taskId, userId, deadlineAt: now + this.#deadlineMs, now }, files);
    this.#start(taskId);
    return { taskId };
  }

  /** The size cap of a prepared or uploaded file, in bytes. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * POST /media/upload, first half: streams the body into tmp/ with the size cap, the
   * format sniffed from the bytes and the sha256. Nothing is recorded yet: the caller
   * either keeps it (`keepUpload`) or drops it (`discardUpload`, e.g. on an idempotent replay).
   */
  async receiveUpload(body: ReadableStream<Uint8Array>, options: { filename?: string | undefined; signal?: AbortSignal | undefined }): Promise<ReceivedUpload> {
    if (this.#closed) throw new Error('media service is closed');
    const part = join(this.tmpDir, `upload-${randomToken(16)}.part`);
    const received = await receiveUpload(body, { path: part, maxBytes: this.#maxBytes, filename: options.filename, signal: options.signal });
    return { ...received, part };
  }

  /**
   * Second half: moves the file into place and records a task already `completed` with it,
   * in one transaction. Its prepared URL lives and is swept like any prepared file's.
   */
  async keepUpload(userId: string, upload: ReceivedUpload): Promise<{ taskId: string }> {
    const now = this.clock.now();
    const taskId = newId('task');
    const file = { id: newId('file'), url: `upload:${upload.name}`, token: randomToken(TOKEN_LENGTH) };
    const target = this.pathOf(file);
    await rename(upload.part, target);
    try {
      this.store.recordUpload({ id: taskId, userId, now }, file, {
        kind: upload.format.kind,
        mimeType: upload.format.mimeType,
        size: upload.size,
        sha256: upload.sha256,
        path: file.token,
        name: upload.name,
        preparedAt: now,
        expiresAt: now + this.lifetimeMs,
      });
    } catch (err) {
      await rm(target, { force: true });
      throw err;
    }
    this.events.emit('task', { taskId, status: 'completed' });
    this.#log.info('media file uploaded', { task_id: taskId, file_id: file.id, kind: upload.format.kind, size: upload.size });
    return { taskId };
  }

  async discardUpload(upload: ReceivedUpload): Promise<void> {
    await rm(upload.part, { force: true });
  }

  /** The task as GET /media/status shows it, with its owner; undefined when unknown. */
  status(taskId: string): { userId: string; status: MediaStatus } | undefined {
    const task = this.store.task(taskId);
    if (!task) return undefined;
    return { userId: task.user_id, status: this.#view(task, this.store.files(taskId)) };
  }

  /** Resolves when the task's background work has ended (at once when none runs). */
  async settled(taskId: string): Promise<void> {
    await this.#running.get(taskId)?.done;
  }

  /**
   * At start, before any new task: clears partial downloads and restarts every task
   * still processing (their files from the beginning). Returns how many resumed.
   */
  async resume(): Promise<number> {
    if (this.#running.size === 0) {
      // Nothing runs yet, so everything in tmp/ is a leftover of the previous run.
      await rm(this.tmpDir, { recursive: true, force: true });
      await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
      this.#temp.clear();
    }
    const ids = this.store.processingTaskIds().filter((id) => !this.#running.has(id));
    for (const id of ids) this.#start(id);
    if (ids.length) this.#log.info('media tasks resumed', { count: ids.length });
    return ids.length;
  }

  /** Stops all downloads; unfinished files go back to pending and resume at the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#running.values()];
    for (const r of running) r.ctrl.abort(new Shutdown('the daemon is stopping'));
    await Promise.all(running.map((r) => r.done));
  }

  /** Where prepared files are served, without a trailing slash. */
  get publicBaseUrl(): string {
    return this.#publicBaseUrl().replace(/\/+$/, '');
  }

  /** The URL a prepared file is served at. */
  preparedUrl(file: Pick<FileRow, 'token' | 'name'>): string {
    return `${this.publicBaseUrl}/files/${file.token}/${file.name ?? 'file'}`;
  }

  /** The prepared file a URL points at (any base URL, matched by token), or undefined. */
  fileForUrl(url: string): FileWithUser | undefined {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
    const token = TOKEN_IN_URL.exec(path)?.[1];
    return token ? this.store.byToken(token) : undefined;
  }

  /** Absolute path of a prepared file on disk. */
  pathOf(file: Pick<FileRow, 'token'>): string {
    return join(this.filesDir, file.token);
  }

  /** True when the file may no longer be served (past its lifetime and no live target needs it). */
  isExpired(file: FileWithUser, now = this.clock.now()): boolean {
    if (file.status === 'expired') return true;
    if (file.status !== 'ready' || file.expires_at === null) return false;
    return now >= file.expires_at && !this.store.isRetained(file.token);
  }

  /**
   * Fetches a media URL that was not prepared (publish time) through the same safe path
   * into a temp file. The sweeper removes it later; `discardTemp` sooner.
   */
  async fetchToTemp(url: string, signal: AbortSignal): Promise<DownloadResult & { path: string }> {
    const path = join(this.tmpDir, `fetch-${randomToken(16)}`);
    const source = resolveSource(url, this.#hosts);
    const result = await this.#slots.run(
      () => downloadToFile(source, { guard: this.#guard, signal, path, maxBytes: this.#maxBytes, ...this.#timeouts }),
      signal,
    );
    this.#temp.set(path, this.clock.now());
    return { ...result, path };
  }

  /** Deletes publish-time temp files older than `maxAgeMs`. */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    const cutoff = this.clock.now() - maxAgeMs;
    let removed = 0;
    for (const [path, at] of this.#temp) {
      if (at > cutoff) continue;
      await rm(path, { force: true });
      this.#temp.delete(path);
      removed++;
    }
    return removed;
  }

  #start(taskId: string): void {
    const ctrl = new AbortController();
    const done = this.#run(taskId, ctrl)
      .catch((err: unknown) => this.#log.error('media task crashed', { task_id: taskId, error: err }))
      .finally(() => this.#running.delete(taskId));
    this.#running.set(taskId, { ctrl, done });
  }

  async #run(taskId: string, ctrl: AbortController): Promise<void> {
    const task = this.store.task(taskId);
    if (!task || task.status !== 'processing') return;
    const deadlineTimer = new AbortController();
    const timeout = new MediaError('timeout', `the task passed its ${Math.round(this.#deadlineMs / 60_000)}-minute limit`);
    const remaining = task.deadline_at - this.clock.now();
    if (remaining <= 0) ctrl.abort(timeout);
    else this.clock.sleep(remaining, deadlineTimer.signal).then(() => ctrl.abort(timeout), () => {});
    try {
      const unfinished = this.store.files(taskId).filter((f) => f.status === 'pending' || f.status === 'fetching');
      await Promise.all(unfinished.map((f) => this.#prepareFile(f, ctrl.signal)));
    } finally {
      deadlineTimer.abort();
    }
    if (ctrl.signal.reason instanceof Shutdown) return;
    this.#finish(taskId, ctrl.signal.aborted);
  }

  async #prepareFile(file: FileRow, signal: AbortSignal): Promise<void> {
    const part = join(this.tmpDir, `${file.id}.part`);
    try {
      await this.#slots.run(async () => {
        this.store.markFetching(file.id, this.clock.now());
        this.events.emit('file', { taskId: file.task_id, fileId: file.id, status: 'fetching' });
        // A crash between rename and the ready mark leaves the final file: start clean.
        await rm(this.pathOf(file), { force: true });
        const source = resolveSource(file.original_url, this.#hosts);
        const result = await downloadToFile(source, { guard: this.#guard, signal, path: part, maxBytes: this.#maxBytes, ...this.#timeouts });
        signal.throwIfAborted();
        await rename(part, this.pathOf(file));
        const now = this.clock.now();
        this.store.markReady(
          file.id,
          {
            kind: result.format.kind,
            mimeType: result.format.mimeType,
            size: result.size,
            sha256: result.sha256,
            path: file.token,
            name: result.name,
            preparedAt: now,
            expiresAt: now + this.lifetimeMs,
          },
          now,
        );
        this.events.emit('file', { taskId: file.task_id, fileId: file.id, status: 'ready' });
        this.#log.info('media file prepared', { task_id: file.task_id, file_id: file.id, kind: result.format.kind, size: result.size });
      }, signal);
    } catch (err) {
      await rm(part, { force: true });
      const reason: unknown = signal.aborted ? signal.reason : err;
      if (reason instanceof Shutdown) {
        this.store.markPending(file.id, this.clock.now());
        this.events.emit('file', { taskId: file.task_id, fileId: file.id, status: 'pending' });
        return;
      }
      const e = toMediaError(reason);
      this.store.markFailed(file.id, e.code, e.message, this.clock.now());
      this.events.emit('file', { taskId: file.task_id, fileId: file.id, status: 'failed' });
      this.#log.info('media file failed', { task_id: file.task_id, file_id: file.id, code: e.code, message: e.message });
    }
  }

  #finish(taskId: string, timedOut: boolean): void {
    const files = this.store.files(taskId);
    const ready = files.filter((f) => f.status === 'ready').length;
    const now = this.clock.now();
    if (timedOut) {
      this.store.finishTask(
        taskId,
        'failed',
        { code: 'timeout', message: `the task passed its ${Math.round(this.#deadlineMs / 60_000)}-minute limit; ${ready} of ${files.length} files were prepared` },
        now,
      );
    } else if (ready === 0) {
      this.store.finishTask(taskId, 'failed', { code: 'all_files_failed', message: `none of the ${files.length} files could be prepared; see failed` }, now);
    } else {
      this.store.finishTask(taskId, 'completed', null, now);
    }
    this.events.emit('task', { taskId, status: timedOut || ready === 0 ? 'failed' : 'completed' });
    this.#log.info('media task finished', { task_id: taskId, ready, total: files.length, timed_out: timedOut });
  }

  /** The user's prepared files still on hand, newest first (GET /media/library). */
  library(userId: string): MediaLibrary {
    const files = this.store.library(userId, this.clock.now(), MEDIA_LIBRARY_MAX).map(
      (f): MediaLibraryFile => ({
        original_url: f.original_url,
        prepared_url: this.preparedUrl(f),
        type: f.kind ?? 'image',
        mime_type: f.mime_type ?? 'application/octet-stream',
        size: f.size ?? 0,
        sha256: f.sha256 ?? '',
        expires_at: formatInstant(f.expires_at ?? 0),
        name: f.name ?? f.original_url.split('/').pop() ?? f.original_url,
        prepared_at: formatInstant(f.prepared_at ?? f.updated_at),
      }),
    );
    return { success: true, files };
  }

  #view(task: TaskRow, files: FileRow[]): MediaStatus {
    const prepared = files.filter((f) => f.status === 'ready' || f.status === 'expired');
    const failedRows = files.filter((f) => f.status === 'failed');
    const progress = { total: files.length, completed: prepared.length, failed: failedRows.length };
    const base = { success: true as const, task_id: task.id };
    if (task.status === 'processing') return { ...base, status: 'processing', progress };
    const record = (f: FileRow): PreparedFile => ({
      original_url: f.original_url,
      prepared_url: this.preparedUrl(f),
      type: f.kind ?? 'image',
      mime_type: f.mime_type ?? 'application/octet-stream',
      size: f.size ?? 0,
      sha256: f.sha256 ?? '',
      expires_at: formatInstant(f.expires_at ?? task.updated_at),
    });
    const failed = failedRows.map(
      (f): FailedFile => ({ original_url: f.original_url, error: { code: f.error_code ?? 'fetch_failed', message: f.error_message ?? 'could not be prepared' } }),
    );
    if (task.status === 'completed') return { ...base, status: 'completed', progress, files: prepared.map(record), failed };
    return {
      ...base,
      status: 'failed',
      progress,
      error: { code: task.error_code ?? 'all_files_failed', message: task.error_message ?? 'the task failed' },
      files: prepared.map(record),
      failed,
    };
  }
}
