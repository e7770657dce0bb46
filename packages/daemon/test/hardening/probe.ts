import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./daemon-child.ts', import.meta.url));
export const API = '/api/agents/v1';

export interface ChildDaemon {
  child: ChildProcess;
  url: string;
  /** Everything the daemon wrote to stderr so far (its JSON log lines). */
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts test/hardening/daemon-child.ts (the real startDaemon, run by tsx) on `dataDir`. */
export async function startChildDaemon(dataDir: string, env: Record<string, string> = {}): Promise<ChildDaemon> {
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', CHILD, dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before ready: ${err}`)));
  });
  return {
    child,
    url,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Milliseconds one GET /healthz takes, with its status. */
export async function healthz(url: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/healthz`);
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

/**
 * Runs `measure` (a whileProbingHealth of the work) until /healthz stayed within `budgetMs`
 * throughout, at most `attempts` (5) times; returns the last run and the latency it must
 * stay under (`allowedMs`). A stall of the event loop repeats on every try; the retries
 * absorb the scheduling noise of a machine whose two cores are shared by many processes
 * (the development machines here, a whole test suite running in parallel). When every try
 * is over the budget, /healthz is measured alone for as many answers: if it is over the
 * budget by itself, the machine is the cause, and the work may add no more than that
 * (allowedMs = twice the idle slowest); a held event loop (seconds) still fails.
 */
export async function withinBudget<T>(
  budgetMs: number,
  measure: () => Promise<{ result: T; slowestMs: number; samples: number }>,
  url: string,
  attempts = 5,
): Promise<{ result: T; slowestMs: number; samples: number; tries: number[]; allowedMs: number }> {
  const tries: number[] = [];
  for (;;) {
    const run = await measure();
    tries.push(Math.round(run.slowestMs));
    if (run.slowestMs < budgetMs) {
      console.info(`/healthz slowest ${tries.join(' ms, then ')} ms (${run.samples} answers in the last try; budget ${budgetMs} ms)`);
      return { ...run, tries, allowedMs: budgetMs };
    }
    if (tries.length >= attempts) {
      const idle = await whileProbingHealth(url, () => new Promise((r) => setTimeout(r, 300)));
      const allowedMs = Math.max(budgetMs, 2 * idle.slowestMs);
      console.info(
        `/healthz slowest ${tries.join(' ms, then ')} ms, over the ${budgetMs} ms budget every try; alone on this machine just now: ${Math.round(idle.slowestMs)} ms, so the work may add up to ${Math.round(allowedMs)} ms`,
      );
      return { ...run, tries, allowedMs };
    }
  }
}

/**
 * Runs `work` while GET /healthz is asked again as soon as each answer arrives; returns
 * work's result with the slowest and the number of health answers (all must be 200).
 */
export async function whileProbingHealth<T>(url: string, work: () => Promise<T>): Promise<{ result: T; slowestMs: number; samples: number }> {
  await healthz(url); // a warm connection: the first request's connect is not the event loop's delay
  let done = false;
  let slowestMs = 0;
  let samples = 0;
  const prober = (async () => {
    while (!done) {
      const h = await healthz(url);
      if (h.status !== 200) throw new Error(`/healthz answered ${h.status}`);
      slowestMs = Math.max(slowestMs, h.ms);
      samples++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    // The health request in flight when the work ends counts too: it waited for it.
    done = true;
    await prober;
  }
  return { result, slowestMs, samples };
}
