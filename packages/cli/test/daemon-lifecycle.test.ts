import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/local/daemon-files';
import { tempHome } from './helpers';

const home = tempHome();
let pid: number | undefined;

function runFollow(signal: AbortSignal, onOut: (text: string) => void) {
  // stdout of the in-process run is only returned at the end; watch it through a stdout-like hook.
  return home.run('daemon logs -n 1 --follow', { stop: signal, onStdout: onOut });
}
afterAll(async () => {
  // Never leave a background daemon behind, whatever happened above.
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  home.cleanup();
});

describe('socialpub up / daemon / down', () => {
  it('starts from nothing: data dir, user, key, a background daemon, and a saved config', async () => {
    expect(existsSync(home.dataDir)).toBe(false);
    const r = await home.run('up --port 0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✔ socialpub is up at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toContain('socialpub connect twitter --sandbox');
    expect(r.stdout).toContain('socialpub publish "hello" -p twitter --now --wait');

    const state = JSON.parse(readFileSync(join(home.dataDir, 'daemon.json'), 'utf8')) as { pid: number; url: string };
    pid = state.pid;
    expect(isAlive(state.pid)).toBe(true);
    expect(Number(readFileSync(join(home.dataDir, 'daemon.pid'), 'utf8'))).toBe(state.pid);
    expect((await fetch(`${state.url}/healthz`)).status).toBe(200);

    const config = JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as Record<string, string>;
    expect(config['base-url']).toBe(state.url);
    expect(config['api-key']).toMatch(/^sp_key_/);
    expect(config['data-dir']).toBe(home.dataDir);
    expect(statSync(join(home.configDir, 'config.json')).mode & 0o777).toBe(0o600);

    // The saved key works with no flags and no environment.
    const who = await home.run('whoami --json');
    expect(who.json<{ user: { email: string } }>().user.email).toBe('owner@localhost');
  }, 60_000); // spawns the CLI from its sources (tsx): slow on a loaded machine

  it('reports an already running daemon and keeps the key', async () => {
    const before = JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as Record<string, string>;
    const r = await home.run('up --json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ already_running: true, pid, key_created: false });
    const after = JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as Record<string, string>;
    expect(after['api-key']).toBe(before['api-key']);
    const human = await home.run('daemon start');
    expect(human.stdout).toMatch(/already running at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  });

  it('refuses --database while the daemon runs on SQLite (exit 5), rather than report it running; nothing is remembered', async () => {
    const r = await home.run('up --database postgres://someone@127.0.0.1:5/socialpub --json');
    expect(r.code).toBe(5);
    const error = r.json<{ error: { code: string; message: string; hint: string } }>();
    expect(error.error.code).toBe('daemon_running');
    expect(error.error.message).toBe(`the daemon of ${home.dataDir} is already running (pid ${pid}, ${JSON.parse(readFileSync(join(home.dataDir, 'daemon.json'), 'utf8')).url}) on SQLite (socialpub.db in the data dir): --database was not applied`);
    expect(error.error.hint).toContain('socialpub down');
    expect(error.error.hint).toContain('socialpub db migrate-to <url>');
    expect(existsSync(join(home.dataDir, 'config.json'))).toBe(false);
    // The daemon runs on, untouched.
    expect((await home.run('up --json')).json()).toMatchObject({ already_running: true, pid });
  });

  it('replaces a saved key the daemon no longer accepts', async () => {
    await home.run('config set api-key sp_key_00000000000000000000_0000000000000000000000000000000000000000');
    const r = await home.run('up --json');
    expect(r.json()).toMatchObject({ already_running: true, key_created: true });
    expect((await home.run('whoami')).code).toBe(0);
  });

  it('follows the log until told to stop', async () => {
    const { appendFileSync } = await import('node:fs');
    const stop = new AbortController();
    const chunks: string[] = [];
    let tailed!: () => void;
    let seen!: () => void;
    const tailPrinted = new Promise<void>((resolve) => (tailed = resolve));
    const arrived = new Promise<void>((resolve) => (seen = resolve));
    const follow = runFollow(stop.signal, (text) => {
      chunks.push(text);
      tailed();
      if (text.includes('"msg":"appended by the test"')) seen();
    });
    // The tail (-n 1) comes first; a line appended after it must show up too.
    await tailPrinted;
    expect(chunks.join('')).not.toContain('appended by the test');
    appendFileSync(join(home.dataDir, 'daemon.log'), `${JSON.stringify({ level: 'info', msg: 'appended by the test' })}\n`);
    await arrived;
    stop.abort();
    expect((await follow).code).toBe(0);
    expect(chunks.join('').trim().split('\n')).toHaveLength(2);
  });

  it('shows its status and its log', async () => {
    const human = await home.run('daemon logs -n 2');
    expect(human.code).toBe(0);
    expect(human.stdout.trim().split('\n')).toHaveLength(2);
    const status = await home.run('daemon status --json');
    expect(status.code).toBe(0);
    expect(status.json()).toMatchObject({ running: true, pid, health: { status: 'ok' } });
    expect((await home.run('daemon status')).stdout).toMatch(/daemon:\s+running at http/);
    const logs = await home.run('daemon logs -n 5 --json');
    expect(logs.code).toBe(0);
    expect(logs.json<{ lines: { msg: string }[] }>().lines.map((l) => l.msg)).toContain('socialpub daemon listening');
  });

  it('stops it with down, cleanly, and says so again without failing', async () => {
    const r = await home.run('down --json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ stopped: true, pid, forced: false });
    expect(isAlive(pid as number)).toBe(false);
    expect(existsSync(join(home.dataDir, 'daemon.json'))).toBe(false);
    expect(readFileSync(join(home.dataDir, 'daemon.log'), 'utf8')).toContain('socialpub daemon stopped');
    const again = await home.run('down');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no daemon runs on');
    const status = await home.run('daemon status --json');
    expect(status.code).toBe(7);
    expect(status.json()).toMatchObject({ success: false, error: { code: 'daemon_unreachable' }, data: { running: false } });
  });

  it('starts and stops a daemon without touching keys or config (daemon start / stop)', async () => {
    const configBefore = readFileSync(join(home.configDir, 'config.json'), 'utf8');
    const started = await home.run('daemon start --port 0 --json');
    expect(started.code, started.stderr).toBe(0);
    const s = started.json<{ started: boolean; pid: number; url: string }>();
    pid = s.pid;
    expect(s.started).toBe(true);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(readFileSync(join(home.configDir, 'config.json'), 'utf8')).toBe(configBefore);
    const stopped = await home.run('daemon stop');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/✔ daemon stopped \(pid \d+\)/);
    expect(isAlive(s.pid)).toBe(false);
  }, 60_000); // spawns the CLI from its sources (tsx): slow on a loaded machine

  it('never signals a process that a stale pid file names', async () => {
    const { writeFileSync } = await import('node:fs');
    // This test process is alive but is not a daemon: `down` must leave it alone.
    writeFileSync(join(home.dataDir, 'daemon.pid'), `${process.pid}\n`);
    const r = await home.run('down --json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ stopped: false });
    expect(existsSync(join(home.dataDir, 'daemon.pid'))).toBe(false);
  });

  it('says when there is no log yet (exit 4)', async () => {
    const other = tempHome();
    const r = await other.run('daemon logs');
    expect(r.code).toBe(4);
    other.cleanup();
  });
});

describe('socialpub daemon run', () => {
  it('serves in the foreground, records where, and shuts down cleanly when told to stop', async () => {
    const h = tempHome();
    const stop = new AbortController();
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const running = h.run('daemon run --port 0', { stop: stop.signal, onStderr: (all) => all.includes('"msg":"socialpub daemon ready"') && listening() });
    await ready;
    const state = JSON.parse(readFileSync(join(h.dataDir, 'daemon.json'), 'utf8')) as { url: string; pid: number };
    expect(state.pid).toBe(process.pid);
    expect((await fetch(`${state.url}/healthz`)).status).toBe(200);
    const second = await h.run('daemon run --port 0 --json');
    expect(second.code).toBe(5);
    stop.abort('SIGTERM');
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"msg":"socialpub daemon stopped"');
    expect(existsSync(join(h.dataDir, 'daemon.json'))).toBe(false);
    await expect(fetch(`${state.url}/healthz`)).rejects.toThrow();
    h.cleanup();
  });

  it('says the port is taken and how to choose another (exit 5), not only EADDRINUSE', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    const h = tempHome();
    try {
      const r = await h.run(`daemon run --port ${port} --json`);
      expect(r.code).toBe(5);
      expect(r.json<{ error: unknown }>().error).toEqual({
        code: 'port_in_use',
        message: `127.0.0.1:${port} is already in use by another program`,
        hint: 'choose another port with --port 9000 (or SOCIALPUB_PORT=9000), or --port 0 for any free one',
        exit_code: 5,
      });
      expect(existsSync(join(h.dataDir, 'daemon.json'))).toBe(false);
    } finally {
      taken.close();
      h.cleanup();
    }
  });

  it('refuses a public address without TLS (exit 2)', async () => {
    const h = tempHome();
    const r = await h.run('daemon run --host 0.0.0.0 --port 0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('without TLS');
    h.cleanup();
  });
});
