import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION as CORE_VERSION } from '@socialpub/core';
import { VERSION } from '../src/version';
import { buildProgram } from '../src/main';
import { parseWhen, scheduleValue } from '../src/time-input';
import { processIo } from '../src/io';
import { tempHome } from './helpers';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';

const home = tempHome();
afterAll(() => home.cleanup());

function allCommands(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...path, c.name()], ...allCommands(c, [...path, c.name()])]);
}

describe('socialpub basics', () => {
  it('prints the version of package.json, which core agrees with', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(CORE_VERSION).toBe(pkg.version);
    const r = await home.run('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it('shows examples in the help of every command', async () => {
    const leaves = allCommands(await buildProgram(processIo())).filter((p) => p.length > 0);
    expect(leaves.length).toBeGreaterThan(30);
    for (const path of leaves) {
      const r = await home.run([...path, '--help']);
      expect(r.code, path.join(' ')).toBe(0);
      const isGroup = ['daemon', 'keys', 'connections', 'settings', 'sandbox', 'schedule', 'auth', 'config'].includes(path.join(' '));
      if (!isGroup) expect(r.stdout, `${path.join(' ')} --help`).toMatch(/Examples:\n {2}\$ socialpub /);
    }
    const top = await home.run('--help');
    expect(top.stdout).toContain('Exit codes: 0 ok, 1 error, 2 usage');
  });

  it('answers an unknown command with exit 2 and a suggestion', async () => {
    const r = await home.run('shedule list');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: unknown command 'shedule'/);
  });

  it('prints usage errors as JSON under --json, and nothing else on stdout', async () => {
    const r = await home.run('schedule show --json');
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({
      success: false,
      error: { code: 'usage', message: "missing required argument 'job_id'", hint: 'see `socialpub <command> --help`', exit_code: 2 },
    });
  });

  it('exits 2 when a group is called without its subcommand', async () => {
    const r = await home.run('schedule');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: socialpub schedule');
  });

  it('refuses a bad port before doing anything', async () => {
    const r = await home.run('daemon run --port 70000');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must be a port number');
  });

  it('says the daemon is unreachable with exit 7', async () => {
    const r = await home.run('schedule list --json', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sp_key_x_y' } });
    expect(r.code).toBe(7);
    const body = r.json<{ error: { code: string; hint: string } }>();
    expect(body.error.code).toBe('daemon_unreachable');
    expect(body.error.hint).toContain('socialpub up');
  });

  it('exits 3 and explains how to get a key when none is configured', async () => {
    const r = await home.run('schedule list', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no API key');
    expect(r.stderr).toContain('hint: run `socialpub up`');
  });
});

describe('socialpub config', () => {
  it('sets, gets, masks, and unsets values in a 0600 file', async () => {
    expect((await home.run('config set base-url http://127.0.0.1:9999')).code).toBe(0);
    expect((await home.run('config set api-key sp_key_abcdefghij0123456789_secretsecret')).code).toBe(0);
    const path = (await home.run('config path')).stdout.trim();
    expect(path.startsWith(home.configDir)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const one = await home.run('config get base-url');
    expect(one.stdout.trim()).toBe('http://127.0.0.1:9999');
    const all = await home.run('config get --json');
    expect(all.json()).toEqual({ 'base-url': 'http://127.0.0.1:9999', 'api-key': 'sp_key_abcdefghij0123456789_…' });
    const human = await home.run('config get');
    expect(human.stdout).toMatch(/api-key:\s+sp_key_abcdefghij0123456789_…/);
    expect(human.stdout).not.toContain('secretsecret');

    expect((await home.run('config unset api-key')).code).toBe(0);
    expect((await home.run('config get api-key --json')).json()).toEqual({ 'api-key': null });
  });

  it('refuses unknown keys with exit 2', async () => {
    const r = await home.run('config set colour blue');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown config key "colour"');
  });

  it('lets flags beat the environment, and the environment beat the config', async () => {
    await home.run('config set base-url http://127.0.0.1:1');
    const envWins = await home.run('auth validate --json', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:2', SOCIALPUB_API_KEY: 'sp_key_x_y' } });
    expect(envWins.json<{ error: { message: string } }>().error.message).toContain('127.0.0.1:2');
    const flagWins = await home.run('auth validate --json --base-url http://127.0.0.1:3', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:2', SOCIALPUB_API_KEY: 'sp_key_x_y' } });
    expect(flagWins.json<{ error: { message: string } }>().error.message).toContain('127.0.0.1:3');
    const configOnly = await home.run('auth validate --json', { env: { SOCIALPUB_API_KEY: 'sp_key_x_y' } });
    expect(configOnly.json<{ error: { message: string } }>().error.message).toContain('127.0.0.1:1');
    await home.run('config unset base-url');
  });
});

describe('colour', () => {
  const ESC = '\u001b[';
  it('colours a terminal, and not with NO_COLOR, --no-color or a pipe', async () => {
    const tty = await home.run('config get', { env: { NO_COLOR: undefined }, stdoutIsTTY: true });
    expect(tty.stdout).toContain(ESC);
    const noColor = await home.run('config get', { env: { NO_COLOR: '1' }, stdoutIsTTY: true });
    expect(noColor.stdout).not.toContain(ESC);
    const flag = await home.run('config get --no-color', { env: { NO_COLOR: undefined }, stdoutIsTTY: true });
    expect(flag.stdout).not.toContain(ESC);
    const piped = await home.run('config get', { env: { NO_COLOR: undefined }, stdoutIsTTY: false });
    expect(piped.stdout).not.toContain(ESC);
    const forced = await home.run('config get', { env: { NO_COLOR: undefined, FORCE_COLOR: '1' }, stdoutIsTTY: false });
    expect(forced.stdout).toContain(ESC);
  });
});

describe('socialpub completion', () => {
  it('prints a bash script that bash accepts and that completes subcommands', async () => {
    const r = await home.run('completion bash');
    expect(r.code).toBe(0);
    const out = execFileSync('bash', ['-c', `${r.stdout}\nCOMP_WORDS=(socialpub schedule ""); COMP_CWORD=2; _socialpub; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8' });
    expect(out.split(' ')).toEqual(expect.arrayContaining(['list', 'show', 'retime', 'cancel', 'approve', 'reject']));
    const flags = execFileSync('bash', ['-c', `${r.stdout}\nCOMP_WORDS=(socialpub publish --w); COMP_CWORD=2; _socialpub; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8' });
    expect(flags.trim()).toBe('--wait');
  });

  it('prints zsh and fish scripts naming every top-level command', async () => {
    const zsh = await home.run('completion zsh');
    expect(zsh.stdout.startsWith('#compdef socialpub')).toBe(true);
    const fish = await home.run('completion fish');
    for (const name of ['up', 'down', 'publish', 'schedule', 'prepare', 'connect', 'keys']) {
      expect(zsh.stdout).toContain(`'${name}:`);
      expect(fish.stdout).toContain(`-a '${name}'`);
    }
    expect(fish.stdout).toContain("__fish_seen_subcommand_from schedule; and not __fish_seen_subcommand_from list show retime share cancel approve reject");
  });

  it('refuses an unknown shell with exit 2', async () => {
    expect((await home.run('completion powershell')).code).toBe(2);
  });
});

describe('times typed by people', () => {
  const now = Date.UTC(2026, 11, 25, 10, 0, 0);
  it('reads zoned ISO times, local times and offsets from now', () => {
    expect(parseWhen('2026-12-25T12:00:00+02:00', '--at', now)).toBe('2026-12-25T10:00:00.000Z');
    expect(parseWhen('+1h30m', '--at', now)).toBe('2026-12-25T11:30:00.000Z');
    expect(parseWhen('2026-12-25 10:00', '--at', now)).toBe(new Date(2026, 11, 25, 10, 0).toISOString());
  });
  it('refuses what is not a time, naming the flag', () => {
    expect(() => parseWhen('tomorrow', '--at', now)).toThrow(/--at "tomorrow" is not a time/);
    expect(() => parseWhen('2026-02-30 10:00', '--at', now)).toThrow(/not a time/);
    expect(() => parseWhen('+1d', '--at', now)).toThrow(/offset looks like/);
  });
  it('keeps offsets relative in a type schedule and turns times into instants', () => {
    expect(scheduleValue('+1h', '--offset')).toBe('+1h');
    expect(scheduleValue('2026-12-25T10:00:00Z', '--offset')).toBe('2026-12-25T10:00:00.000Z');
  });
});
