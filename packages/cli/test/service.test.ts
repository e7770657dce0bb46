import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launchdManager, type Runner } from '../src/local/service/manager';
import type * as ManagerModule from '../src/local/service/manager';
import { launchdPlist, systemdUnit } from '../src/local/service/units';
import { isAlive, readDaemonState } from '../src/local/daemon-files';
import { endDaemon, tempHome } from './helpers';

/**
 * `socialpub service`: never the real user's systemd. HOME and XDG_CONFIG_HOME are temp
 * dirs, and the runner that would call systemctl/launchctl records the calls and answers
 * as the manager would.
 */
const fake = vi.hoisted(() => ({
  calls: [] as string[],
  answers: new Map<string, { code: number; stdout: string; stderr: string }>(),
}));
vi.mock('../src/local/service/manager', async (importOriginal) => {
  const original = await importOriginal<typeof ManagerModule>();
  const execRunner: Runner = async (file, args) => {
    const line = [file, ...args].join(' ');
    fake.calls.push(line);
    return fake.answers.get(line) ?? { code: 0, stdout: '', stderr: '' };
  };
  return { ...original, execRunner };
});

let home: ReturnType<typeof tempHome>;
beforeEach(() => {
  home = tempHome();
  home.env.XDG_CONFIG_HOME = join(home.root, 'xdg');
  fake.calls.length = 0;
  fake.answers.clear();
});
afterEach(() => home.cleanup());

const unitPath = () => join(home.root, 'xdg', 'systemd', 'user', 'socialpub.service');

describe.runIf(process.platform === 'linux')('socialpub service on Linux (systemd user unit)', () => {
  it('install writes a unit running `daemon run` on this data dir, logging to daemon.log, and enables and starts it', async () => {
    fake.answers.set('systemctl --user is-enabled socialpub.service', { code: 0, stdout: 'enabled\n', stderr: '' });
    fake.answers.set('systemctl --user is-active socialpub.service', { code: 0, stdout: 'active\n', stderr: '' });
    const r = await home.run('service install --port 9000 --json');
    expect(r.code, r.stderr).toBe(0);
    const unit = readFileSync(unitPath(), 'utf8');
    const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';
    expect(execStart.startsWith(`${process.execPath} `)).toBe(true);
    expect(execStart.endsWith(` --data-dir ${home.dataDir} daemon run --port 9000`)).toBe(true);
    expect(unit).toContain('\nRestart=on-failure\n');
    expect(unit).toContain(`\nStandardOutput=append:${join(home.dataDir, 'daemon.log')}\n`);
    expect(unit).toContain(`\nStandardError=append:${join(home.dataDir, 'daemon.log')}\n`);
    expect(unit).toContain('\n[Install]\nWantedBy=default.target\n');
    expect(fake.calls).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable socialpub.service',
      'systemctl --user restart socialpub.service',
      'systemctl --user is-enabled socialpub.service',
      'systemctl --user is-active socialpub.service',
    ]);
    expect(r.json()).toMatchObject({ manager: 'systemd', file: unitPath(), installed: true, enabled: true, active: true, log: join(home.dataDir, 'daemon.log') });
  });

  it('status: 0 when running, 7 when installed but stopped, 4 when not installed', async () => {
    const none = await home.run('service status --json');
    expect(none.code).toBe(4);
    expect(none.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(fake.calls).toEqual([]);

    await home.run('service install');
    fake.calls.length = 0;
    fake.answers.set('systemctl --user is-enabled socialpub.service', { code: 0, stdout: 'enabled\n', stderr: '' });
    fake.answers.set('systemctl --user is-active socialpub.service', { code: 3, stdout: 'failed\n', stderr: '' });
    const stopped = await home.run('service status');
    expect(stopped.code).toBe(7);
    expect(stopped.stderr).toContain('installed but not running (failed)');

    fake.answers.set('systemctl --user is-active socialpub.service', { code: 0, stdout: 'active\n', stderr: '' });
    const running = await home.run('service status --json');
    expect(running.code).toBe(0);
    expect(running.json()).toEqual({ manager: 'systemd', file: unitPath(), installed: true, enabled: true, active: true, detail: 'active' });
  });

  it('uninstall stops and disables the unit, removes it and reloads; again is not an error', async () => {
    await home.run('service install');
    fake.calls.length = 0;
    const r = await home.run('service uninstall --json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual({ removed: true, manager: 'systemd', file: unitPath() });
    expect(existsSync(unitPath())).toBe(false);
    expect(fake.calls).toEqual(['systemctl --user disable --now socialpub.service', 'systemctl --user daemon-reload']);
    const again = await home.run('service uninstall --json');
    expect(again.json()).toEqual({ removed: false, manager: 'systemd', file: unitPath() });
  });

  it('install says why when there is no user systemd, and leaves nothing behind, exit 1', async () => {
    fake.answers.set('systemctl --user daemon-reload', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' });
    const r = await home.run('service install');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the service could not be installed, and nothing was changed: `systemctl --user daemon-reload` failed: Failed to connect to bus: No medium found');
    expect(r.stderr).toContain('loginctl enable-linger');
    expect(existsSync(unitPath())).toBe(false);
    expect(fake.calls).toEqual(['systemctl --user daemon-reload']);
  });

  it('install with no user bus keeps the running daemon running, and says so', async () => {
    const up = await home.run('up --port 0 --json');
    expect(up.code, up.stderr).toBe(0);
    const { pid, url } = up.json<{ pid: number; url: string }>();
    try {
      fake.answers.set('systemctl --user daemon-reload', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' });
      const r = await home.run('service install');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the service could not be installed, and nothing was changed (the daemon started by \`up\` (pid ${pid}) is still running)`);
      expect(isAlive(pid)).toBe(true);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(existsSync(unitPath())).toBe(false);
    } finally {
      await endDaemon(home.dataDir, () => home.run('down'));
    }
  });

  it('install whose service fails to start takes the unit out and starts the daemon it stopped again, on its port', async () => {
    const up = await home.run('up --port 0 --json');
    expect(up.code, up.stderr).toBe(0);
    const first = up.json<{ pid: number; url: string }>();
    try {
      fake.answers.set('systemctl --user restart socialpub.service', { code: 1, stdout: '', stderr: 'Job for socialpub.service failed because the control process exited with error code.' });
      const r = await home.run('service install --json');
      expect(r.code).toBe(1);
      const again = await readDaemonState(home.dataDir);
      expect(again?.pid).not.toBe(first.pid);
      expect(again?.port).toBe(Number(new URL(first.url).port));
      expect(isAlive(again?.pid ?? -1)).toBe(true);
      expect(r.json<{ error: { message: string } }>().error.message).toBe(
        `the service did not start, so it was removed; the daemon started by \`up\` runs again (pid ${again?.pid}, ${first.url}): \`systemctl --user restart socialpub.service\` failed: Job for socialpub.service failed because the control process exited with error code.`,
      );
      expect(existsSync(unitPath())).toBe(false);
      expect(fake.calls).toEqual(['systemctl --user daemon-reload', 'systemctl --user enable socialpub.service', 'systemctl --user restart socialpub.service', 'systemctl --user disable --now socialpub.service']);
    } finally {
      await endDaemon(home.dataDir, () => home.run('down'));
    }
  });

  it('uninstall with no user bus still removes the unit file, and says nothing could be stopped', async () => {
    await home.run('service install');
    fake.calls.length = 0;
    fake.answers.set('systemctl --user disable --now socialpub.service', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' });
    const r = await home.run('service uninstall');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(unitPath())).toBe(false);
    expect(r.stdout).toContain(`service file removed (${unitPath()})`);
    expect(r.stderr).toContain('warning: systemctl --user could not be reached (`systemctl --user disable --now socialpub.service` failed: Failed to connect to bus: No medium found), so nothing was stopped');
    expect(r.stderr).toContain('loginctl enable-linger');
    expect(fake.calls).toEqual(['systemctl --user disable --now socialpub.service']);
  });
});

describe('the unit files', () => {
  const spec = { command: ['/opt/social pub/socialpub', '--data-dir', '/home/a/100%/data', 'daemon', 'run'], workingDirectory: '/opt/social pub', logFile: '/home/a/data/daemon.log' };

  it('systemd: words with spaces are quoted, % and $ escaped', () => {
    expect(/^ExecStart=(.*)$/m.exec(systemdUnit(spec))?.[1]).toBe('"/opt/social pub/socialpub" --data-dir /home/a/100%%/data daemon run');
    expect(systemdUnit({ ...spec, command: ['/x', '$HOME'] })).toContain('ExecStart=/x "$$HOME"');
  });

  it('launchd (macOS): a login agent restarted on failure, output to daemon.log', () => {
    const plist = launchdPlist({ ...spec, command: ['/opt/socialpub', '--data-dir', '/Users/a/R&D', 'daemon', 'run'] });
    expect(plist).toContain('<key>Label</key>\n  <string>dev.socialpub.daemon</string>');
    expect(plist).toContain(
      '<key>ProgramArguments</key>\n  <array>\n    <string>/opt/socialpub</string>\n    <string>--data-dir</string>\n    <string>/Users/a/R&amp;D</string>\n    <string>daemon</string>\n    <string>run</string>\n  </array>',
    );
    expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
    expect(plist).toContain('<key>KeepAlive</key>\n  <dict>\n    <key>SuccessfulExit</key>\n    <false/>\n  </dict>');
    expect(plist).toContain('<key>StandardOutPath</key>\n  <string>/home/a/data/daemon.log</string>');
    expect(plist).toContain('<key>StandardErrorPath</key>\n  <string>/home/a/data/daemon.log</string>');
  });

  it('launchd: bootstraps the agent into the gui domain and reads its state', async () => {
    const calls: string[] = [];
    const run: Runner = async (file, args) => {
      calls.push([file, ...args].join(' '));
      if (args[0] === 'print') return { code: 0, stdout: 'dev.socialpub.daemon = {\n\tstate = running\n\tpid = 42\n}', stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    };
    const manager = launchdManager({ HOME: '/Users/a' }, run, 501);
    expect(manager.file).toBe('/Users/a/Library/LaunchAgents/dev.socialpub.daemon.plist');
    await manager.prepare();
    await manager.start();
    expect(await manager.state(true)).toEqual({ installed: true, enabled: true, active: true, detail: 'running' });
    await manager.disable();
    expect(calls).toEqual([
      'launchctl print gui/501',
      'launchctl bootout gui/501/dev.socialpub.daemon',
      'launchctl bootstrap gui/501 /Users/a/Library/LaunchAgents/dev.socialpub.daemon.plist',
      'launchctl enable gui/501/dev.socialpub.daemon',
      'launchctl print gui/501/dev.socialpub.daemon',
      'launchctl bootout gui/501/dev.socialpub.daemon',
    ]);
  });
});
