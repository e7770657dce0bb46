// bench/lateness --diagnose: loaded with --import (NODE_OPTIONS) into the daemon and its
// simulators' process. Every turn of the event loop over 20 ms is recorded with this
// thread's time on a core, waiting for one (the kernel's schedstat) and neither (blocked:
// a syscall such as an fsync, or a GC waiting for its helpers), and every GC pause over
// 2 ms: `stall <process> <epoch ms> <ms> cpu <ms> runq <ms> blocked <ms>`, `gc <process> <epoch ms> <ms>`,
// appended to the file BENCH_STALLS_FILE (the simulators' stderr is their daemon's to read).
import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STALLS_FILE;
if (isMainThread && file) {
  const out = (line) => appendFileSync(file, line);
  const who = process.argv.includes('sandbox') ? `simulators:${process.pid}` : `daemon:${process.pid}`;
  const sched = () => readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
  let last = performance.now();
  let lastSched = sched();
  setInterval(() => {
    const now = performance.now();
    const s = sched();
    if (now - last > 20) {
      const cpu = (s[0] - lastSched[0]) / 1e6;
      const wait = (s[1] - lastSched[1]) / 1e6;
      out(`stall ${who} ${Date.now()} ${Math.round(now - last)} cpu ${cpu.toFixed(1)} runq ${wait.toFixed(1)} blocked ${(now - last - cpu - wait).toFixed(1)}\n`);
    }
    last = now;
    lastSched = s;
  }, 5).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration > 2) out(`gc ${who} ${Math.round(performance.timeOrigin + e.startTime)} ${e.duration.toFixed(1)}\n`);
  }).observe({ entryTypes: ['gc'] });
}
