import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LAUNCHD_LABEL, SYSTEMD_UNIT, launchdPlist, systemdUnit, type ServiceSpec } from './units';

/** Runs a program to completion; never throws for a non-zero exit (a missing program is code 127). */
export type Runner = (file: string, args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

export interface ServiceState {
  /** The unit/agent file exists. */
  installed: boolean;
  /** It starts at login. */
  enabled: boolean;
  /** The daemon runs under it now. */
  active: boolean;
  /** The manager's own word for the state (systemd's is-active, launchd's state). */
  detail: string;
}

/** One service manager: where its file lives and the commands that load, unload and inspect it. */
export interface ServiceManager {
  kind: 'systemd' | 'launchd';
  file: string;
  render(spec: ServiceSpec): string;
  /**
   * Makes the written file known and starts it at login, without starting it now; fails
   * when the manager cannot be reached (no user bus, no GUI session), before anything runs.
   */
  prepare(): Promise<void>;
  /** Starts (or restarts) the daemon under the manager now. */
  start(): Promise<void>;
  /** Stops the daemon and unloads the file (before it is removed). */
  disable(): Promise<void>;
  state(installed: boolean): Promise<ServiceState>;
}

export class ServiceCommandError extends Error {
  constructor(
    readonly command: string,
    readonly output: string,
  ) {
    super(`\`${command}\` failed${output ? `: ${output}` : ''}`);
  }
}

async function must(run: Runner, file: string, args: string[]): Promise<string> {
  const r = await run(file, args);
  if (r.code !== 0) throw new ServiceCommandError([file, ...args].join(' '), (r.stderr || r.stdout).trim());
  return r.stdout;
}

/** ~/.config/systemd/user/socialpub.service (or under $XDG_CONFIG_HOME), driven by `systemctl --user`. */
export function systemdManager(env: NodeJS.ProcessEnv, run: Runner): ServiceManager {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  const systemctl = (...args: string[]) => ['--user', ...args];
  return {
    kind: 'systemd',
    file: join(configHome, 'systemd', 'user', SYSTEMD_UNIT),
    render: systemdUnit,
    async prepare() {
      await must(run, 'systemctl', systemctl('daemon-reload'));
      await must(run, 'systemctl', systemctl('enable', SYSTEMD_UNIT));
    },
    async start() {
      // restart, not start: a unit installed again (new flags) takes its new command line.
      await must(run, 'systemctl', systemctl('restart', SYSTEMD_UNIT));
    },
    async disable() {
      await must(run, 'systemctl', systemctl('disable', '--now', SYSTEMD_UNIT));
    },
    async state(installed) {
      if (!installed) return { installed, enabled: false, active: false, detail: 'not installed' };
      const enabled = (await run('systemctl', systemctl('is-enabled', SYSTEMD_UNIT))).stdout.trim();
      const active = await run('systemctl', systemctl('is-active', SYSTEMD_UNIT));
      const detail = active.stdout.trim() || active.stderr.trim() || `systemctl exited ${active.code}`;
      return { installed, enabled: enabled === 'enabled', active: detail === 'active', detail };
    },
  };
}

/** ~/Library/LaunchAgents/dev.socialpub.daemon.plist, driven by `launchctl` in the user's GUI domain. */
export function launchdManager(env: NodeJS.ProcessEnv, run: Runner, uid: number): ServiceManager {
  const file = join(env.HOME || homedir(), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  const domain = `gui/${uid}`;
  const target = `${domain}/${LAUNCHD_LABEL}`;
  return {
    kind: 'launchd',
    file,
    render: launchdPlist,
    async prepare() {
      // The user's GUI domain must be there to bootstrap into (not over a plain SSH login).
      await must(run, 'launchctl', ['print', domain]);
    },
    async start() {
      // Replacing a loaded agent: unload the old one first (an error here means it was not loaded).
      await run('launchctl', ['bootout', target]);
      // The agent runs at load (RunAtLoad): bootstrapping starts it.
      await must(run, 'launchctl', ['bootstrap', domain, file]);
      await must(run, 'launchctl', ['enable', target]);
    },
    async disable() {
      const r = await run('launchctl', ['bootout', target]);
      // 3 / "No such process": it was not loaded, which is what we want.
      if (r.code !== 0 && r.code !== 3 && !/no such process|could not find/i.test(r.stderr)) {
        throw new ServiceCommandError(`launchctl bootout ${target}`, r.stderr.trim());
      }
    },
    async state(installed) {
      if (!installed) return { installed, enabled: false, active: false, detail: 'not installed' };
      const r = await run('launchctl', ['print', target]);
      if (r.code !== 0) return { installed, enabled: false, active: false, detail: 'not loaded' };
      const state = /^\s*state = (.+)$/m.exec(r.stdout)?.[1]?.trim() ?? 'loaded';
      return { installed, enabled: true, active: state === 'running', detail: state };
    },
  };
}

/** The manager of this platform, or null where socialpub has none (Windows). */
export function serviceManager(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, run: Runner, uid: number): ServiceManager | null {
  if (platform === 'linux') return systemdManager(env, run);
  if (platform === 'darwin') return launchdManager(env, run, uid);
  return null;
}

export async function writeServiceFile(manager: ServiceManager, spec: ServiceSpec): Promise<void> {
  await mkdir(dirname(manager.file), { recursive: true });
  await writeFile(manager.file, manager.render(spec), { mode: 0o644 });
}

export async function removeServiceFile(manager: ServiceManager): Promise<void> {
  await rm(manager.file, { force: true });
}

/** The service file's text, or null when there is none (to put back what an install replaced). */
export async function readServiceFile(manager: ServiceManager): Promise<string | null> {
  return readFile(manager.file, 'utf8').catch(() => null);
}

/** Puts back a service file as it was before (`null`: there was none). */
export async function restoreServiceFile(manager: ServiceManager, previous: string | null): Promise<void> {
  if (previous === null) await removeServiceFile(manager);
  else await writeFile(manager.file, previous, { mode: 0o644 });
}

/** The real runner: execa, lazily loaded. */
export const execRunner: Runner = async (file, args) => {
  const { execa } = await import('execa');
  const r = await execa(file, args, { reject: false, stdin: 'ignore' });
  return { code: r.exitCode ?? (r.failed ? 127 : 1), stdout: String(r.stdout), stderr: String(r.stderr || (r.failed && r.exitCode === undefined ? r.message : '')) };
};
