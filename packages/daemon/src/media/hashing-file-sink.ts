import { closeSync, openSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { formatBytes } from './format-bytes';
import type { BodySink } from '../net/http1-get';
import { MediaError } from '../net/media-error';

/** Bytes go to the hashing thread in batches of this size, passed by transfer (no copy). */
const BATCH_BYTES = 1024 * 1024;
/** Batches out at the hashing thread before the socket is asked to pause. */
const MAX_OUT = 8;

// Plain JavaScript, run with `eval`, so the bundled CLI needs no separate worker file.
// One thread serves every download, each hash kept under its sink's id.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'data') {
    let hash = hashes.get(m.id);
    if (!hash) hashes.set(m.id, (hash = createHash('sha256')));
    hash.update(new Uint8Array(m.ab, 0, m.length));
    parentPort.postMessage({ op: 'hashed', id: m.id, ab: m.ab }, [m.ab]);
  } else if (m.op === 'digest') {
    const hash = hashes.get(m.id) ?? createHash('sha256');
    hashes.delete(m.id);
    parentPort.postMessage({ op: 'digest', id: m.id, sha256: hash.digest('hex') });
  } else if (m.op === 'drop') {
    hashes.delete(m.id);
  }
});
`;

type FromWorker = { op: 'hashed'; id: number; ab: ArrayBuffer } | { op: 'digest'; id: number; sha256: string };

interface HashClient {
  onMessage(m: FromWorker): void;
  fail(err: Error): void;
}

/** The shared hashing thread, started on first use and restarted after a crash. */
class HashingThread {
  static #current: HashingThread | null = null;
  readonly worker: Worker;
  readonly #clients = new Map<number, HashClient>();
  #nextId = 1;

  static get(): HashingThread {
    HashingThread.#current ??= new HashingThread();
    return HashingThread.#current;
  }

  private constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.on('message', (m: FromWorker) => this.#clients.get(m.id)?.onMessage(m));
    const crash = (reason: string) => {
      if (HashingThread.#current === this) HashingThread.#current = null;
      const err = new MediaError('fetch_failed', `could not hash the file: ${reason}`);
      for (const client of this.#clients.values()) client.fail(err);
      this.#clients.clear();
    };
    this.worker.on('error', (err) => crash(err.message));
    this.worker.on('exit', () => crash('the hashing thread stopped'));
    // Idle, it must not keep the process alive (after the listeners: adding one refs it again).
    this.worker.unref();
  }

  register(client: HashClient): number {
    const id = this.#nextId++;
    this.#clients.set(id, client);
    // Busy, it must: a digest on its way is all that may be left to wait for.
    if (this.#clients.size === 1) this.worker.ref();
    return id;
  }

  release(id: number): void {
    if (!this.#clients.delete(id)) return;
    this.worker.postMessage({ op: 'drop', id });
    if (this.#clients.size === 0) this.worker.unref();
  }
}

/**
 * Writes body bytes to a file on the event loop and hashes them on a worker thread.
 *
 * Why this split: each chunk is written from the socket's small read buffer while it is
 * still in the CPU cache (writing cold multi-megabyte buffers into the page cache
 * measured two to three times slower), and a copy goes in 1 MB batches (transferred,
 * not copied again) to a thread that computes sha256 meanwhile, so hashing adds little
 * time. Writes go to the page cache and take microseconds. The size cap is counted
 * here, on the bytes received.
 */
export class HashingFileSink implements BodySink {
  readonly #fd: number;
  readonly #maxBytes: number;
  readonly #thread: HashingThread;
  readonly #id: number;
  readonly #free: ArrayBuffer[] = [];
  #batch: Buffer = Buffer.from(new ArrayBuffer(BATCH_BYTES));
  #fill = 0;
  /** Batches at the worker. */
  #out = 0;
  #size = 0;
  #error: Error | null = null;
  #drainWaiters: (() => void)[] = [];
  #digest: { resolve: (sha: string) => void; reject: (e: Error) => void } | null = null;
  #closed = false;

  private constructor(fd: number, maxBytes: number) {
    this.#fd = fd;
    this.#maxBytes = maxBytes;
    this.#thread = HashingThread.get();
    this.#id = this.#thread.register({ onMessage: (m) => this.#onMessage(m), fail: (err) => this.#fail(err) });
  }

  static async open(path: string, maxBytes: number): Promise<HashingFileSink> {
    let fd: number;
    try {
      fd = openSync(path, 'w', 0o600);
    } catch (err) {
      throw new MediaError('fetch_failed', `could not create the file: ${(err as Error).message}`, { cause: err });
    }
    return new HashingFileSink(fd, maxBytes);
  }

  write(chunk: Buffer): boolean {
    if (this.#error) throw this.#error;
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) throw new MediaError('too_large', `the file is larger than the limit of ${formatBytes(this.#maxBytes)}`);
    try {
      for (let done = 0; done < chunk.length; ) done += writeSync(this.#fd, chunk, done, chunk.length - done);
    } catch (err) {
      throw new MediaError('fetch_failed', `could not write the file: ${(err as Error).message}`, { cause: err });
    }
    // For the hash: into the current batch; a full batch goes to the worker.
    let offset = 0;
    while (offset < chunk.length) {
      const n = chunk.copy(this.#batch, this.#fill, offset);
      this.#fill += n;
      offset += n;
      if (this.#fill === BATCH_BYTES) this.#send();
    }
    return this.#out < MAX_OUT;
  }

  drained(): Promise<void> {
    if (this.#out < MAX_OUT || this.#error) return Promise.resolve();
    return new Promise<void>((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Closes the file once everything is hashed; resolves with the size and sha256. */
  async finish(): Promise<{ size: number; sha256: string }> {
    try {
      if (this.#error) throw this.#error;
      if (this.#fill > 0) this.#send();
      const sha256 = await new Promise<string>((resolve, reject) => {
        this.#digest = { resolve, reject };
        this.#thread.worker.postMessage({ op: 'digest', id: this.#id });
      });
      this.#close();
      return { size: this.#size, sha256 };
    } finally {
      await this.abort();
    }
  }

  /** Closes the file and forgets the hash; the caller removes the file. */
  async abort(): Promise<void> {
    this.#close();
    this.#thread.release(this.#id);
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  #send(): void {
    const ab = this.#batch.buffer as ArrayBuffer;
    this.#thread.worker.postMessage({ op: 'data', id: this.#id, ab, length: this.#fill }, [ab]);
    this.#out++;
    this.#batch = Buffer.from(this.#free.pop() ?? new ArrayBuffer(BATCH_BYTES));
    this.#fill = 0;
  }

  #onMessage(m: FromWorker): void {
    if (m.op === 'digest') {
      this.#digest?.resolve(m.sha256);
      return;
    }
    this.#out--;
    this.#free.push(m.ab);
    if (this.#out < MAX_OUT) for (const w of this.#drainWaiters.splice(0)) w();
  }

  #fail(err: Error): void {
    this.#error ??= err;
    this.#digest?.reject(err);
    for (const w of this.#drainWaiters.splice(0)) w();
  }
}
