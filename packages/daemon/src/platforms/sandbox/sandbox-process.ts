import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SandboxFaults } from '@socialpub/core';
import type { RootLogger } from '../../util/logger';

/** How to run `socialpub` itself (the CLI's selfCommand): the simulators' process is `socialpub sandbox serve`. */
export interface SelfCommand {
  file: string;
  args: string[];
  cwd: string;
}

export interface SandboxProcessOptions {
  command: SelfCommand;
  dataDir: string;
  log: RootLogger;
  /** Faults for every user, as the daemon resolved them (handed over in SOCIALPUB_SANDBOX_GLOBAL_FAULTS). */
  faults?: SandboxFaults;
  /** Environment of the process (default this one's). */
  env?: NodeJS.ProcessEnv;
  /** First wait before a restart, doubled up to 5 s while the process keeps dying young. Default 250 ms. */
  restartDelayMs?: number;
  /** How long a start may take before it counts as failed. Default 30 s. */
  startTimeoutMs?: number;
  /** Told, after every (re)start, the origins the process serves each host at (the daemon records them for `sandbox endpoints`). */
  onServing?: (served: SandboxServing) => void;
}

/** The ready line of `socialpub sandbox serve --json`: where the simulators are. */
export interface SandboxServing {
  url: string;
  endpoints: Record<string, string>;
  https_endpoints: Record<string, string>;
}

export interface SandboxProcess {
  /** `http://127.0.0.1:<port>` of the simulators (`/sandbox/<host>/...`); the same port across restarts when it is free. */
  readonly url: string;
  /** The running process's pid (null while it restarts). */
  readonly pid: number | null;
  /** How many times it was restarted after dying. */
  readonly restarts: number;
  /** What the last (re)start served (its ready line). */
  readonly serving: SandboxServing | null;
  /** Resolves once the next (re)start is serving (tests). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Set in the simulators' process: it exits when its stdin (a pipe from the daemon) closes, so it never outlives a killed daemon. */
export const SANDBOX_CHILD_ENV = 'SOCIALPUB_SANDBOX_CHILD';

/** The faults for every user, as JSON, from the daemon to its simulators' process (which then reads no SOCIALPUB_SANDBOX_* of its own). */
export const SANDBOX_FAULTS_ENV = 'SOCIALPUB_SANDBOX_GLOBAL_FAULTS';

const MAX_RESTART_DELAY_MS = 5_000;

/**
 * Runs the simulators in a process of their own (`socialpub sandbox serve --json`),
 * started with the daemon and stopped with it: a busy sandbox (uploads parsed, bodies
 * hashed, SQLite written) takes none of the publisher's event loop, and the daemon's own
 * CPU can be measured apart. If the process dies, the daemon keeps running and starts it
 * again (same port when free; calls meanwhile see a refused connection, which every
 * adapter retries). The process keeps its data in the data dir's sandbox.db and reads the
 * daemon's database read-only (store/sandbox-database.ts), so the daemon's writes never
 * wait on the simulators' write lock.
 */
export async function startSandboxProcess(opts: SandboxProcessOptions): Promise<SandboxProcess> {
  let url = '';
  let port = 0;
  let serving: SandboxServing | null = null;
  let child: ChildProcess | null = null;
  let closing = false;
  let restarts = 0;
  let delay = opts.restartDelayMs ?? 250;
  let readyNow: Promise<void>;

  const launch = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const args = [...opts.command.args, 'sandbox', 'serve', '--json', '--port', String(port), '--data-dir', opts.dataDir];
      const proc = spawn(opts.command.file, args, {
        cwd: opts.command.cwd,
        env: { ...(opts.env ?? process.env), [SANDBOX_CHILD_ENV]: '1', [SANDBOX_FAULTS_ENV]: JSON.stringify(opts.faults ?? {}) },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child = proc;
      const startedAt = Date.now();
      let stderr = '';
      let started = false;
      const timer = setTimeout(() => {
        if (!started) proc.kill('SIGKILL');
      }, opts.startTimeoutMs ?? 30_000);
      proc.stderr!.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
        // Its log lines (faults applied, errors) join the daemon's.
        if (started) for (const line of d.toString().split('\n').filter(Boolean)) opts.log.info('sandbox process', { line: line.slice(0, 2000) });
      });
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        if (started) return;
        try {
          const served = JSON.parse(line) as SandboxServing;
          url = served.url;
          port = Number(new URL(url).port);
          started = true;
          clearTimeout(timer);
          serving = { url: served.url, endpoints: served.endpoints ?? {}, https_endpoints: served.https_endpoints ?? {} };
          try {
            opts.onServing?.(serving);
          } catch (e) {
            opts.log.warn('recording the sandbox origins failed', { error: (e as Error).message });
          }
          resolve();
        } catch {
          // Not the ready line.
        }
      });
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (child === proc) child = null;
        if (!started) {
          // Perhaps the last run's port was taken meanwhile: let the system pick the next time.
          port = 0;
          // The first start's failure is the daemon's start failing; a restart's is retried (scheduleRestart).
          reject(new Error(`the sandbox process exited (${signal ?? code}) before serving: ${stderr.trim().slice(-500)}`));
          return;
        }
        if (closing) return;
        opts.log.warn('sandbox process stopped; starting it again', { code, signal, uptime_ms: Date.now() - startedAt });
        if (Date.now() - startedAt > 30_000) delay = opts.restartDelayMs ?? 250;
        scheduleRestart();
      });
    });

  const scheduleRestart = () => {
    const wait = delay;
    delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    readyNow = new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        if (closing) return resolve();
        restarts += 1;
        launch().then(resolve, (e: unknown) => {
          opts.log.error('sandbox process did not start; trying again', { error: (e as Error).message });
          if (closing) return resolve();
          scheduleRestart();
          resolve(readyNow);
        });
      }, wait);
      t.unref();
    });
  };

  readyNow = launch();
  await readyNow;

  return {
    get url() {
      return url;
    },
    get pid() {
      return child?.pid ?? null;
    },
    get restarts() {
      return restarts;
    },
    get serving() {
      return serving;
    },
    ready: () => readyNow,
    async close() {
      closing = true;
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const hard = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(hard);
    },
  };
}
