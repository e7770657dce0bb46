import { existsSync } from 'node:fs';
import type { Ctx } from '../context';
import { CliError, EXIT, NotFoundError } from '../errors';
import { daemonPaths } from '../local/daemon-files';
import { daemonRunArgs, stopBackground, type StartFlags } from '../local/daemon-process';
import { selfCommand } from '../local/self-command';
import { ServiceCommandError, execRunner, removeServiceFile, serviceManager, writeServiceFile, type Runner, type ServiceManager } from '../local/service/manager';

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

function failed(err: unknown, manager: ServiceManager, what: string): never {
  if (!(err instanceof ServiceCommandError)) throw err;
  const hint =
    manager.kind === 'systemd'
      ? 'systemctl --user needs a user session with systemd (not a container or a plain su); over SSH, `loginctl enable-linger $USER` keeps one'
      : 'launchctl needs a logged-in GUI session of this user';
  throw new CliError('service_failed', `${what}: ${err.message}`, EXIT.error, { hint });
}

/**
 * `socialpub service install`: writes the unit (agent) that runs `socialpub daemon run` on
 * this data dir at login, restarting it when it fails, its output appended to daemon.log,
 * and starts it now. A daemon started with `up` on the same data dir is stopped first:
 * two daemons cannot share one.
 */
export async function serviceInstall(ctx: Ctx, flags: StartFlags, deps: ServiceDeps = defaultDeps()): Promise<void> {
  const manager = managerFor(ctx, deps);
  const dataDir = await ctx.dataDir();
  const spec = {
    command: [deps.self.file, ...deps.self.args, ...daemonRunArgs(dataDir, flags)],
    workingDirectory: deps.self.cwd,
    logFile: daemonPaths(dataDir).log,
  };
  const stopped = await stopBackground(dataDir);
  await writeServiceFile(manager, spec);
  await manager.enable().catch((err: unknown) => failed(err, manager, `${manager.file} is written, but starting it failed`));
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

/** `socialpub service uninstall`: stops the service's daemon and removes the unit; not installed is not an error. */
export async function serviceUninstall(ctx: Ctx, deps: ServiceDeps = defaultDeps()): Promise<void> {
  const manager = managerFor(ctx, deps);
  const installed = existsSync(manager.file);
  if (installed) {
    await manager.disable().catch((err: unknown) => failed(err, manager, 'stopping the service failed'));
    await removeServiceFile(manager);
    if (manager.kind === 'systemd') await deps.run('systemctl', ['--user', 'daemon-reload']);
  }
  ctx.log.result({ removed: installed, manager: manager.kind, file: manager.file }, () =>
    installed ? `${ctx.log.green('✔')} service removed (${manager.file}); the daemon is stopped` : ctx.log.dim(`no service installed (${manager.file})`),
  );
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
