import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { Ctx } from '../context';
import { CliError, EXIT, NotFoundError } from '../errors';
import { daemonPaths } from '../local/daemon-files';
import { daemonRunArgs, runFlagsOf, runningDaemon, startBackground, stopBackground, type StartFlags } from '../local/daemon-process';
import { selfCommand } from '../local/self-command';
import { ServiceCommandError, execRunner, readServiceFile, removeServiceFile, restoreServiceFile, serviceManager, writeServiceFile, type Runner, type ServiceManager } from '../local/service/manager';

/** What the service commands touch; tests pass a temp HOME and a recording runner. */
export interface ServiceDeps {
  platform: NodeJS.Platform;
  run: Runner;
  uid: number;
  self: { file: string; args: string[]; cwd: string };
}

const defaultDeps = (): ServiceDeps => ({ platform: process.platform, run: execRunner, uid: process.getuid?.() ?? 0, self: selfCommand() });

function managerFor(ctx: Ctx, deps: ServiceDeps): ServiceManager {
  const manager = serviceManager(deps.platform, ctx.io.env, deps.run, deps.uid);
  if (!manager) {
    throw new CliError('unsupported', `socialpub service supports Linux (systemd) and macOS (launchd), not ${deps.platform}`, EXIT.error, {
      hint: 'run `socialpub up` at logon instead (e.g. from Task Scheduler)',
    });
  }
  return manager;
}

function hintFor(manager: ServiceManager): string {
  return manager.kind === 'systemd'
    ? 'systemctl --user needs a user session with systemd (not a container or a plain su); over SSH, `loginctl enable-linger $USER` keeps one'
    : 'launchctl needs a logged-in GUI session of this user';
}

function failed(err: unknown, manager: ServiceManager, what: string): never {
  if (!(err instanceof ServiceCommandError)) throw err;
  throw new CliError('service_failed', `${what}: ${err.message}`, EXIT.error, { hint: hintFor(manager) });
}

/** What becomes of a daemon started with `up` when an install fails, in words. */
const stillRunning = (pid: number) => `the daemon started by \`up\` (pid ${pid}) is still running`;

/**
 * `socialpub service install`: writes the unit (agent) that runs `socialpub daemon run` on
 * this data dir at login, restarting it when it fails, its output appended to daemon.log,
 * and starts it now. A daemon started with `up` on the same data dir is stopped only once
 * the manager has accepted the unit (two daemons cannot share one data dir): when the
 * manager cannot be reached (no user bus), nothing is installed and that daemon keeps
 * running; when the service then fails to start, the unit is taken out again and the
 * daemon started as it was.
 */
export async function serviceInstall(ctx: Ctx, flags: StartFlags, deps: ServiceDeps = defaultDeps()): Promise<void> {
  const manager = managerFor(ctx, deps);
  const dataDir = await ctx.dataDir();
  if (flags.database) {
    // In the data dir's config.json (0600), not in the unit file's command line.
    const { rememberDatabaseUrl } = await import('@socialpub/daemon');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    rememberDatabaseUrl(dataDir, flags.database);
  }
  const spec = {
    command: [deps.self.file, ...deps.self.args, ...daemonRunArgs(dataDir, flags)],
    workingDirectory: deps.self.cwd,
    logFile: daemonPaths(dataDir).log,
  };
  const background = await runningDaemon(dataDir);
  const previous = await readServiceFile(manager);
  await writeServiceFile(manager, spec);
  try {
    await manager.prepare();
  } catch (err) {
    await restoreServiceFile(manager, previous);
    failed(err, manager, `the service could not be installed, and nothing was changed${background ? ` (${stillRunning(background.pid)})` : ''}`);
  }

  const upFlags = background ? await runFlagsOf(background) : null;
  const stopped = background ? await stopBackground(dataDir) : null;
  try {
    await manager.start();
  } catch (err) {
    // Take the unit out again, and give back the daemon it replaced.
    await manager.disable().catch(() => undefined);
    await restoreServiceFile(manager, previous);
    const again = stopped && upFlags ? await startBackground(ctx.io, dataDir, upFlags).catch(() => null) : null;
    const after = again
      ? `; the daemon started by \`up\` runs again (pid ${again.pid}, ${again.url})`
      : stopped
        ? `; the daemon started by \`up\` was stopped and did not start again: run \`socialpub up\``
        : '';
    failed(err, manager, `the service did not start, so it was removed${after}`);
  }
  const state = await manager.state(true);
  ctx.log.result({ manager: manager.kind, file: manager.file, data_dir: dataDir, log: spec.logFile, command: spec.command, stopped_background_pid: stopped?.pid ?? null, ...state }, () => [
    `${ctx.log.green('✔')} socialpub runs as a ${manager.kind} service: it starts at login and restarts if it fails`,
    ...ctx.log.fields([
      ['file', manager.file],
      ['state', state.detail],
      ['data dir', dataDir],
      ['logs', `socialpub daemon logs (${spec.logFile})`],
      ...(stopped ? [['replaced', `the daemon started by \`up\` (pid ${stopped.pid})`] as const] : []),
    ]),
  ]);
}

/**
 * `socialpub service uninstall`: stops the service's daemon and removes the unit; not
 * installed is not an error. When the manager cannot be reached (no user bus), the unit
 * file is removed all the same (nothing would start it again) and the answer says that
 * nothing could be stopped.
 */
export async function serviceUninstall(ctx: Ctx, deps: ServiceDeps = defaultDeps()): Promise<void> {
  const manager = managerFor(ctx, deps);
  const installed = existsSync(manager.file);
  let unreachable: ServiceCommandError | null = null;
  if (installed) {
    try {
      await manager.disable();
    } catch (err) {
      if (!(err instanceof ServiceCommandError)) throw err;
      unreachable = err;
    }
    await removeServiceFile(manager);
    if (manager.kind === 'systemd' && !unreachable) await deps.run('systemctl', ['--user', 'daemon-reload']);
  }
  const warning = unreachable
    ? `${manager.kind === 'systemd' ? 'systemctl --user' : 'launchctl'} could not be reached (${unreachable.message}), so nothing was stopped: a daemon the service started, if one runs, keeps running (see \`socialpub status\`; \`socialpub down\` stops one started by \`up\`)`
    : null;
  if (warning) ctx.log.warn(`${warning}\nhint: ${hintFor(manager)}`);
  ctx.log.result({ removed: installed, manager: manager.kind, file: manager.file, ...(warning ? { warning } : {}) }, () => {
    if (!installed) return ctx.log.dim(`no service installed (${manager.file})`);
    if (warning) return `${ctx.log.green('✔')} service file removed (${manager.file})`;
    return `${ctx.log.green('✔')} service removed (${manager.file}); the daemon is stopped`;
  });
}

/** `socialpub service status`: exit 0 when installed and running, 7 when installed but not running, 4 when not installed. */
export async function serviceStatus(ctx: Ctx, deps: ServiceDeps = defaultDeps()): Promise<void> {
  const manager = managerFor(ctx, deps);
  const state = await manager.state(existsSync(manager.file));
  const data = { manager: manager.kind, file: manager.file, ...state };
  if (!state.installed) throw new NotFoundError(`no socialpub service is installed (${manager.file})`, { hint: 'install one with `socialpub service install`', data });
  if (!state.active) {
    throw new CliError('daemon_unreachable', `the socialpub service is installed but not running (${state.detail})`, EXIT.unreachable, {
      hint: manager.kind === 'systemd' ? 'see `socialpub daemon logs` and `systemctl --user status socialpub`' : 'see `socialpub daemon logs`',
      data,
    });
  }
  ctx.log.result(data, () =>
    ctx.log.fields([
      ['service', `${ctx.log.green(state.detail)} (${manager.kind}${state.enabled ? ', starts at login' : ', not enabled'})`],
      ['file', manager.file],
    ]),
  );
}
