import { Worker } from 'node:worker_threads';
import type { RootLogger } from '../util/logger';
import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { workerDriver } from './sqlite-driver';

/** How often the thread looks at the WAL. */
const DEFAULT_INTERVAL_MS = 250;
/** SQLite's own default, put back if the thread dies; also the WAL frames the thread lets gather before a checkpoint. */
const AUTOCHECKPOINT_PAGES = 1000;
/** The longest frames wait in the WAL before a checkpoint however few they are. */
const DEFAULT_MAX_AGE_MS = 10_000;

// Plain JavaScript, run with `eval`, so the bundled CLI needs no separate worker file.
// Its own connection to the same file; PASSIVE never waits for (or blocks) the writer.
// The frames not yet checkpointed are read from the WAL index (the -shm file, SQLite's
// documented format, walformat.html): mxFrame at byte 16 of its header, nBackfill at byte
// 96, native byte order. A file it cannot read counts as full: the thread then checkpoints.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { endianness } = require('node:os');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const index = Buffer.alloc(100);
const u32 = endianness() === 'LE' ? (o) => index.readUInt32LE(o) : (o) => index.readUInt32BE(o);
let shm = null;
const pendingFrames = () => {
  try {
    shm ??= openSync(workerData.path + '-shm', 'r');
    if (readSync(shm, index, 0, 100, 0) < 100) return Infinity;
    return Math.max(0, u32(16) - u32(96));
  } catch {
    return Infinity;
  }
};
let last = Date.now();
const tick = () => {
  const pending = pendingFrames();
  if (pending === 0) return;
  if (pending < workerData.minFrames && Date.now() - last < workerData.maxAgeMs) return;
  checkpoint();
  last = Date.now();
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m.op === 'now') parentPort.postMessage({ op: 'done', id: m.id, result: checkpoint() });
  else if (m.op === 'stop') {
    clearInterval(timer);
    if (shm !== null) closeSync(shm);
    db.close();
    parentPort.close();
  }
});
`;

export interface CheckpointResult {
  busy: number;
  /** Frames in the WAL. */
  log: number;
  /** Frames of it now in the database file. */
  checkpointed: number;
}

export interface Checkpointer {
  /** Runs a checkpoint now (tests, and to see what the thread sees). */
  now(): Promise<CheckpointResult>;
  /** Stops the thread; call before closing the database (whose close checkpoints what is left). */
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the
 * COMMIT that crosses 1,000 WAL pages: the request that happens to make that commit copies
 * the pages into the database file and fsyncs it twice, on the event loop, and every other
 * request waits (6–10 ms every hundred publishes here; a third of the average commit
 * cost). Here the connection's automatic checkpoint is turned off and a thread with its own
 * connection checkpoints once 1,000 frames have gathered in the WAL (looked at every 250
 * ms), or 10 s after the last checkpoint when fewer have.
 *
 * Not more often: after a checkpoint that copied everything, the next COMMIT starts the WAL
 * over, and SQLite fsyncs the new WAL header inside that COMMIT, on the writer's thread —
 * the event loop (with synchronous NORMAL as with FULL). Checkpointing every 250 ms made
 * that up to four fsyncs a second on the daemon's event loop, and on the simulators'
 * (a few ms each, tens on a busy disk): the tail of a steady flow of publishes
 * (bench/lateness, docs/scaling.md). Durability is unchanged: commits are durable in the
 * WAL; a checkpoint only moves them, syncing the WAL before and the database after. If the
 * thread dies, the automatic checkpoint is turned back on.
 */
export function startCheckpointer(db: DB, opts: { log?: RootLogger; intervalMs?: number; minFrames?: number; maxAgeMs?: number } = {}): Checkpointer {
  // PostgreSQL checkpoints by itself.
  if (dialectOf(db) === 'postgres') return { now: async () => ({ busy: 0, log: 0, checkpointed: 0 }), stop: async () => undefined };
  const { module: sqlite, nativeBinding } = workerDriver();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      sqlite,
      nativeBinding,
      path: db.name,
      intervalMs: opts.intervalMs ?? DEFAULT_INTERVAL_MS,
      minFrames: opts.minFrames ?? AUTOCHECKPOINT_PAGES,
      maxAgeMs: opts.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
    },
  });
  db.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  let dead: string | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const fallBack = (reason: string) => {
    for (const w of waiting.values()) w.reject(new Error(`checkpoint thread stopped: ${reason}`));
    waiting.clear();
    if (dead !== null) return;
    dead = reason;
    if (stopping || !db.open) return;
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    opts.log?.warn('checkpoint thread stopped; SQLite checkpoints on commit again', { reason });
  };
  worker.on('message', (m: { op: 'done'; id: number; result: CheckpointResult }) => {
    waiting.get(m.id)?.resolve(m.result);
    waiting.delete(m.id);
  });
  worker.on('error', (error) => fallBack(error.message));
  worker.on('exit', (code) => fallBack(`exit code ${code}`));

  return {
    now() {
      const id = nextId++;
      return new Promise<CheckpointResult>((resolve, reject) => {
        if (dead !== null) return reject(new Error(`checkpoint thread stopped: ${dead}`));
        waiting.set(id, { resolve, reject });
        worker.postMessage({ op: 'now', id });
      });
    },
    async stop() {
      if (stopping) return exited;
      stopping = true;
      // The database's close (next) checkpoints whatever is left, as with automatic checkpoints.
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      worker.postMessage({ op: 'stop' });
      await exited;
    },
  };
}
