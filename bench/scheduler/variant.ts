/**
 * One measured scheduler in its own process (so peak RSS is its own): `wheel` (ours),
 * `timeout` (a setTimeout per target) or `poll` (SQLite polled every second). Reads the
 * database bench/scheduler/run.ts built, records how late each window target is
 * dispatched, and prints one JSON line.
 *
 * `floor` measures no scheduler: an idle process waking every millisecond, as late as the
 * machine makes it, and dispatching whatever fell due (the environment's share of the figures).
 *
 * argv: <variant> <db path> <window start epoch ms> <window ms> <lead ms>
 * The clock is shifted so that the window starts `lead` ms after this process began.
 */
import type { Clock } from '../../packages/daemon/src/util/clock';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Scheduler } from '../../packages/daemon/src/scheduler/scheduler';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { createTargetQueue } from '../../packages/daemon/src/store/target-queue';

const [variant, dbPath, startArg, windowArg, leadArg] = process.argv.slice(2);
if (!variant || !dbPath) throw new Error('usage: variant.ts <wheel|timeout|poll> <db> <window start> <window ms> <lead ms>');
const WINDOW_START = Number(startArg);
const WINDOW_MS = Number(windowArg);
const LEAD_MS = Number(leadArg);
const PER_MS = 5; // 5,000 a second

const shift = performance.timeOrigin + LEAD_MS - WINDOW_START;
/** Fractional epoch ms on the shifted clock (the measuring stick). */
const preciseNow = () => performance.timeOrigin + performance.now() - shift;
const clock: Clock = {
  now: () => Math.floor(preciseNow()),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, Math.max(0, ms));
      signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
    }),
};

const windowCount = WINDOW_MS * PER_MS;
const lateness = new Float64Array(windowCount);
let recorded = 0;
let readyAt = Number.POSITIVE_INFINITY; // shifted epoch ms when the variant was ready
let dueBeforeReady = 0;
/** Window targets are `tgt_w<i>`, due at WINDOW_START + floor(i / 5). */
const record = (id: string) => {
  if (id.charCodeAt(4) !== 119 /* w */) return;
  const due = WINDOW_START + Math.floor(Number(id.slice(5)) / PER_MS);
  if (due < readyAt) {
    dueBeforeReady++;
    return;
  }
  lateness[recorded++] = preciseNow() - due;
};

const t0 = performance.now();
const db = openDatabase(dbPath);
let stop: () => Promise<void>;

if (variant === 'wheel') {
  const scheduler = new Scheduler({ queue: createTargetQueue(db), clock, onDue: record, sweepMs: 1e12 });
  await scheduler.start();
  stop = () => scheduler.stop();
} else if (variant === 'timeout') {
  const timers: NodeJS.Timeout[] = [];
  for (const r of db.prepare("SELECT id, due_at FROM targets WHERE status = 'scheduled'").iterate() as IterableIterator<{ id: string; due_at: number }>) {
    const id = r.id;
    // The delay is taken from the time each timer is created: loading a million takes seconds.
    timers.push(setTimeout(() => record(id), r.due_at - clock.now()));
  }
  stop = async () => timers.forEach((t) => clearTimeout(t));
} else if (variant === 'poll') {
  const due = db.prepare("SELECT id FROM targets WHERE status = 'scheduled' AND due_at > ? AND due_at <= ? ORDER BY due_at").pluck();
  let last = clock.now();
  const poll = setInterval(() => {
    const now = clock.now();
    for (const id of due.iterate(last, now) as IterableIterator<string>) record(id);
    last = now;
  }, 1_000);
  stop = async () => clearInterval(poll);
} else if (variant === 'floor') {
  // An ideal dispatcher that does no work: wakes every millisecond and "dispatches" the
  // window's virtual targets (5 per ms) due by then. Its figures are what this machine
  // allows any timer-driven scheduler at this rate.
  let timer: NodeJS.Timeout | null = null;
  let next = 0; // index of the next virtual window target
  const chain = () => {
    timer = setTimeout(() => {
      const now = preciseNow();
      while (next < windowCount && WINDOW_START + Math.floor(next / PER_MS) <= now) record(`tgt_w${next++}`);
      chain();
    }, 1);
  };
  chain();
  stop = async () => {
    if (timer) clearTimeout(timer);
  };
} else {
  throw new Error(`unknown variant ${variant}`);
}
const readyMs = performance.now() - t0;
readyAt = preciseNow();
const fromProcessStart = performance.now();

// Event-loop delay over the window: the variant's own blocking (plus the machine's).
await new Promise((r) => setTimeout(r, Math.max(0, WINDOW_START - preciseNow())));
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
await new Promise((r) => setTimeout(r, Math.max(0, WINDOW_START + WINDOW_MS - preciseNow())));
loopDelay.disable();
await new Promise((r) => setTimeout(r, Math.max(0, WINDOW_START + WINDOW_MS + 1_200 - preciseNow())));
await stop();
db.close();

const sorted = lateness.subarray(0, recorded).sort();
const q = (p: number) => (recorded ? (sorted[Math.min(recorded - 1, Math.floor(p * recorded))] as number) : NaN);
process.stdout.write(
  JSON.stringify({
    variant,
    readyMs,
    readyFromProcessStartMs: fromProcessStart,
    dispatched: recorded,
    dueBeforeReady,
    missed: windowCount - recorded - dueBeforeReady,
    loopDelayP99: loopDelay.percentile(99) / 1e6,
    loopDelayMax: loopDelay.max / 1e6,
    p50: q(0.5),
    p99: q(0.99),
    max: recorded ? (sorted[recorded - 1] as number) : NaN,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  }) + '\n',
);
