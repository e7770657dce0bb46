import { mkdir, open, readFile } from 'node:fs/promises';
import type { Io } from '../io';
import { CliError, EXIT } from '../errors';
import { clearDaemonState, daemonPaths, fetchHealth, isAlive, readDaemonState, readPid, type DaemonState } from './daemon-files';
import { selfCommand } from './self-command';

export interface StartFlags {
  host?: string | undefined;
  port?: number | undefined;
  publicUrl?: string | undefined;
  behindProxy?: boolean | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  /** PostgreSQL URL (--database): remembered in the data dir's config.json, never put on a command line. */
  database?: string | undefined;
}

/** The daemon of this data dir if it runs and answers /healthz. */
export async function runningDaemon(dataDir: string): Promise<(DaemonState & { health: Record<string, unknown> }) | null> {
  const state = await readDaemonState(dataDir);
  if (!state || !isAlive(state.pid)) return null;
  const health = await fetchHealth(state.url);
  return health ? { ...state, health } : null;
}

/** The arguments of `socialpub daemon run` for this data dir and these flags (after the program itself). */
export function daemonRunArgs(dataDir: string, flags: StartFlags): string[] {
  return [
    '--data-dir',
    dataDir,
    'daemon',
    'run',
    ...(flags.host ? ['--host', flags.host] : []),
    ...(flags.port !== undefined ? ['--port', String(flags.port)] : []),
    ...(flags.publicUrl ? ['--public-url', flags.publicUrl] : []),
    ...(flags.behindProxy ? ['--behind-proxy'] : []),
    ...(flags.tlsCert ? ['--tls-cert', flags.tlsCert] : []),
    ...(flags.tlsKey ? ['--tls-key', flags.tlsKey] : []),
  ];
}

const START_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

/**
 * Starts `socialpub daemon run` detached (it outlives this command), output appended to
 * daemon.log, and waits until it has written daemon.json and answers /healthz. If it
 * exits first, the error carries the end of its log.
 */
export async function startBackground(io: Io, dataDir: string, flags: StartFlags): Promise<DaemonState> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (flags.database) {
    const { rememberDatabaseUrl } = await import('@socialpub/daemon');
    rememberDatabaseUrl(dataDir, flags.database);
  }
  const paths = daemonPaths(dataDir);
  const log = await open(paths.log, 'a', 0o600);
  const self = selfCommand();
  const args = [...self.args, ...daemonRunArgs(dataDir, flags)];
  // The child gets the log file's descriptor itself (it outlives this process, so nothing
  // may be piped through us). execa documents numeric descriptors; its typings under
  // TypeScript 6 do not resolve them, hence the cast.
  const fd = log.fd as unknown as 'ignore';
  const { execa } = await import('execa');
  let exited: { code: number | undefined } | null = null;
  const child = execa(self.file, args, {
    cwd: self.cwd,
    env: { ...(io.env as Record<string, string>), NO_COLOR: '1' },
    extendEnv: false,
    detached: true,
    cleanup: false,
    reject: false,
    stdin: 'ignore',
    stdout: fd,
    stderr: fd,
  });
  void child.then((r) => {
    exited = { code: r.exitCode };
  });
  child.nodeChildProcess.unref();
  await log.close();
  const pid = child.pid;
  if (pid === undefined) throw new CliError('daemon_start_failed', 'could not start the daemon process', EXIT.error);

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const state = await readDaemonState(dataDir);
    if (state && state.pid === pid && (await fetchHealth(state.url))) return state;
    if (exited || Date.now() > deadline) {
      const tail = (await readFile(paths.log, 'utf8').catch(() => '')).trim().split('\n').slice(-8).join('\n');
      if (!exited) process.kill(pid, 'SIGTERM');
      throw new CliError(
        'daemon_start_failed',
        exited ? `the daemon exited during start-up (code ${(exited as { code: number | undefined }).code})` : `the daemon did not answer within ${START_TIMEOUT_MS / 1000} s`,
        EXIT.error,
        { hint: tail ? `its log (${paths.log}) ends with:\n${tail}` : `see ${paths.log}` },
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * The flags a running daemon was started with, to start it again the same way: its command
 * line where the system shows it (/proc), else its host; always the port it listens on (a
 * daemon started with --port 0 comes back on the same port, which clients have saved).
 */
export async function runFlagsOf(state: DaemonState): Promise<StartFlags> {
  const flags: StartFlags = { host: state.host };
  try {
    const argv = (await readFile(`/proc/${state.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    const at = argv.findIndex((a, i) => a === 'run' && argv[i - 1] === 'daemon');
    const rest = at >= 0 ? argv.slice(at + 1) : [];
    for (let i = 0; i < rest.length; i++) {
      const [name, value] = [rest[i], rest[i + 1]];
      if (name === '--behind-proxy') flags.behindProxy = true;
      else if (value === undefined) break;
      else if (name === '--host') flags.host = value;
      else if (name === '--public-url') flags.publicUrl = value;
      else if (name === '--tls-cert') flags.tlsCert = value;
      else if (name === '--tls-key') flags.tlsKey = value;
      else if (name !== '--port') continue;
      i++;
    }
  } catch {
    // No /proc (macOS): the host and port are what the state file knows.
  }
  return { ...flags, port: state.port };
}

const STOP_TIMEOUT_MS = 10_000;

/**
 * Whether `pid` is a socialpub daemon: a pid file can outlive its process and the number
 * be reused, and we must not signal a stranger. Linux tells through /proc; elsewhere the
 * pid is trusted.
 */
async function isOurDaemon(pid: number): Promise<boolean> {
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const i = cmdline.indexOf('daemon');
    return i >= 0 && cmdline[i + 1] === 'run';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || process.platform !== 'linux';
  }
}

/** SIGTERM (a clean shutdown), SIGKILL if it is still there after 10 s. Null when nothing ran. */
export async function stopBackground(dataDir: string): Promise<{ pid: number; forced: boolean } | null> {
  const state = await readDaemonState(dataDir);
  const pid = state?.pid ?? (await readPid(dataDir));
  if (pid === null || pid === undefined || !isAlive(pid) || !(await isOurDaemon(pid))) {
    if (pid) await clearDaemonState(dataDir, pid);
    return null;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const forced = isAlive(pid);
  if (forced) process.kill(pid, 'SIGKILL');
  await clearDaemonState(dataDir, pid);
  return { pid, forced };
}
