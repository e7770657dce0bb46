import { join } from 'node:path';

// node:fs/promises when first used: every command loads this module (Ctx finds the daemon
// through it), and fs/promises brings ten more modules (readline among them) to each start.
const fsp = () => process.getBuiltinModule('node:fs/promises');

/** Where a daemon started from the CLI leaves its traces, inside the data dir. */
export function daemonPaths(dataDir: string) {
  return {
    pid: join(dataDir, 'daemon.pid'),
    state: join(dataDir, 'daemon.json'),
    log: join(dataDir, 'daemon.log'),
  };
}

/** Written by `daemon run` once it listens, so others learn its real address (port 0 too). */
export interface DaemonState {
  pid: number;
  url: string;
  host: string;
  port: number;
  started_at: string;
  data_dir: string;
}

export async function readDaemonState(dataDir: string): Promise<DaemonState | null> {
  try {
    const state = JSON.parse(await fsp().readFile(daemonPaths(dataDir).state, 'utf8')) as DaemonState;
    return typeof state.pid === 'number' && typeof state.url === 'string' ? state : null;
  } catch {
    return null;
  }
}

export async function writeDaemonState(state: DaemonState): Promise<void> {
  const paths = daemonPaths(state.data_dir);
  await fsp().mkdir(state.data_dir, { recursive: true, mode: 0o700 });
  await fsp().writeFile(`${paths.state}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  const { rename } = await import('node:fs/promises');
  await rename(`${paths.state}.tmp`, paths.state);
  await fsp().writeFile(paths.pid, `${state.pid}\n`, { mode: 0o600 });
}

/** Removes the pid and state files, but only if they still describe `pid`. */
export async function clearDaemonState(dataDir: string, pid: number): Promise<void> {
  const state = await readDaemonState(dataDir);
  if (state && state.pid !== pid) return;
  const paths = daemonPaths(dataDir);
  await fsp().rm(paths.state, { force: true });
  await fsp().rm(paths.pid, { force: true });
}

export async function readPid(dataDir: string): Promise<number | null> {
  try {
    const pid = Number((await fsp().readFile(daemonPaths(dataDir).pid, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Signal 0 probes a process without touching it. EPERM still means it exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** GET /healthz; null when nothing answers. */
export async function fetchHealth(url: string, timeoutMs = 2000): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok && res.status !== 503) return null;
    return (await res.json()) as Record<string, unknown>;
  } catch {
    return null;
  }
}
