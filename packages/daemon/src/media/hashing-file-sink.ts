import { Worker } from 'node:worker_threads';
import { formatBytes } from './format-bytes';
import type { BodySink } from './http1-get';
import { MediaError } from './media-error';

const STAGE_BYTES = 4 * 1024 * 1024;
const MAX_IN_FLIGHT = 3;

// Plain JavaScript, run with `eval`, so the bundled CLI needs no separate worker file.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
let fd = null;
let hash = null;
parentPort.on('message', (m) => {
  try {
    if (m.op === 'open') {
      fd = fs.openSync(m.path, 'w', 0o600);
      hash = createHash('sha256');
      parentPort.postMessage({ op: 'opened' });
    } else if (m.op === 'write') {
      const buf = Buffer.from(m.ab, 0, m.length);
      hash.update(buf);
      let done = 0;
      while (done < m.length) done += fs.writeSync(fd, buf, done, m.length - done, m.position + done);
      parentPort.postMessage({ op: 'written', ab: m.ab }, [m.ab]);
    } else if (m.op === 'finish') {
      fs.closeSync(fd);
      fd = null;
      parentPort.postMessage({ op: 'finished', sha256: hash.digest('hex') });
    } else if (m.op === 'abort') {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
      parentPort.postMessage({ op: 'aborted' });
    }
  } catch (e) {
    if (fd !== null) { try { fs.closeSync(fd); } catch {} fd = null; }
    parentPort.postMessage({ op: 'error', message: e.message, ab: m.ab }, m.ab ? [m.ab] : []);
  }
});
`;

type FromWorker =
  | { op: 'opened' }
  | { op: 'written'; ab: ArrayBuffer }
  | { op: 'finished'; sha256: string }
  | { op: 'aborted' }
  | { op: 'error'; message: string; ab?: ArrayBuffer };

/**
 * Writes body bytes to a file and hashes them on a worker thread, so the event loop
 * only copies bytes from the socket into 4 MB staging buffers while the worker hashes
 * and writes the previous ones (two cores busy instead of one: close to curl's speed).
 * Staging buffers are transferred, never copied, between the threads; at most three are
 * in flight, beyond which the socket is asked to pause. The size cap is counted here,
 * on the bytes actually received.
 */
export class HashingFileSink implements BodySink {
  readonly #worker: Worker;
  readonly #maxBytes: number;
  readonly #free: ArrayBuffer[] = [];
  #stage: Buffer;
  #fill = 0;
  #size = 0;
  #position = 0;
  #inFlight = 0;
  #error: Error | null = null;
  #drainWaiters: (() => void)[] = [];
  #finished: { resolve: (sha: string) => void; reject: (e: Error) => void } | null = null;
  #opened: { resolve: () => void; reject: (e: Error) => void } | null = null;
  #aborted: (() => void) | null = null;
  #workerGone = false;

  private constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#stage = Buffer.from(new ArrayBuffer(STAGE_BYTES));
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
    this.#worker.unref();
    this.#worker.on('message', (m: FromWorker) => this.#onMessage(m));
    this.#worker.once('exit', () => {
      this.#workerGone = true;
      // Whatever still waits on the worker would otherwise wait forever.
      this.#fail(new MediaError('fetch_failed', 'could not write the file: the writer thread stopped'));
    });
    this.#worker.on('error', (err) => this.#fail(new MediaError('fetch_failed', `could not write the file: ${err.message}`, { cause: err })));
  }

  static async open(path: string, maxBytes: number): Promise<HashingFileSink> {
    const sink = new HashingFileSink(maxBytes);
    await new Promise<void>((resolve, reject) => {
      sink.#opened = { resolve, reject };
      sink.#worker.postMessage({ op: 'open', path });
    });
    return sink;
  }

  write(chunk: Buffer): boolean {
    if (this.#error) throw this.#error;
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) throw new MediaError('too_large', `the file is larger than the limit of ${formatBytes(this.#maxBytes)}`);
    let offset = 0;
    while (offset < chunk.length) {
      const n = chunk.copy(this.#stage, this.#fill, offset);
      this.#fill += n;
      offset += n;
      if (this.#fill === this.#stage.length) this.#send();
    }
    return this.#inFlight < MAX_IN_FLIGHT;
  }

  drained(): Promise<void> {
    if (this.#inFlight < MAX_IN_FLIGHT || this.#error) return Promise.resolve();
    return new Promise<void>((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Writes what is staged, closes the file; resolves with the size and sha256. */
  async finish(): Promise<{ size: number; sha256: string }> {
    if (this.#error) throw this.#error;
    if (this.#fill > 0) this.#send();
    try {
      const sha256 = await new Promise<string>((resolve, reject) => {
        this.#finished = { resolve, reject };
        this.#worker.postMessage({ op: 'finish' });
      });
      return { size: this.#size, sha256 };
    } finally {
      await this.#worker.terminate();
    }
  }

  /** Closes the file (file descriptors outlive a worker) and stops the worker; the caller removes the file. */
  async abort(): Promise<void> {
    if (!this.#workerGone) {
      await new Promise<void>((resolve) => {
        this.#aborted = resolve;
        this.#worker.once('exit', () => resolve());
        this.#worker.postMessage({ op: 'abort' });
      });
    }
    await this.#worker.terminate();
  }

  #send(): void {
    const ab = this.#stage.buffer as ArrayBuffer;
    this.#worker.postMessage({ op: 'write', ab, length: this.#fill, position: this.#position }, [ab]);
    this.#position += this.#fill;
    this.#inFlight++;
    this.#stage = Buffer.from(this.#free.pop() ?? new ArrayBuffer(STAGE_BYTES));
    this.#fill = 0;
  }

  #onMessage(m: FromWorker): void {
    if (m.op === 'opened') this.#opened?.resolve();
    else if (m.op === 'written') {
      this.#inFlight--;
      this.#free.push(m.ab);
      if (this.#inFlight < MAX_IN_FLIGHT) for (const w of this.#drainWaiters.splice(0)) w();
    } else if (m.op === 'finished') this.#finished?.resolve(m.sha256);
    else if (m.op === 'aborted') this.#aborted?.();
    else this.#fail(new MediaError('fetch_failed', `could not write the file: ${m.message}`));
  }

  #fail(err: Error): void {
    this.#error ??= err;
    this.#opened?.reject(err);
    this.#finished?.reject(err);
    for (const w of this.#drainWaiters.splice(0)) w();
  }
}

