import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../src/io';
import { buildProgram } from '../src/main';
import { GLOBAL_SWITCHES, GLOBAL_VALUES, QUICK_COMMANDS, quickCommandFlags, quickReadOf, type QuickCommandName } from '../src/quick-read';
import { runQuickRead } from '../src/run-quick-read';
import { useTestDaemon } from './daemon-harness';
import { argv as split, type CliResult, type RunOptions } from './helpers';

// `schedule list`, `status <id>` and `schedule show <id>` run without commander when the command line is a plain
// one (src/quick-read.ts): what they print and exit with must be what runCli gives for the
// same line, on success and on every kind of failure.
const t = useTestDaemon({ connect: ['twitter'] });

/** Runs a line through the quick path; fails when the line is not one it takes. */
const quick = (argv: string[], io: Io) => {
  const read = quickReadOf(argv);
  if (read === undefined) throw new Error(`not a quick read: ${argv.join(' ')}`);
  return runQuickRead(read, argv, io);
};

/** The daemon's request ids differ between two requests; everything else must not. */
const comparable = (r: CliResult) => ({ code: r.code, stdout: r.stdout.replace(/req_[0-9a-f]+|[0-9a-f]{8}-[0-9a-f-]{27}/g, '<request id>'), stderr: r.stderr.replace(/req_[0-9a-f]+|[0-9a-f]{8}-[0-9a-f-]{27}/g, '<request id>') });

/** The line through runCli and through the quick path: both results, checked equal. */
async function both(line: string, opts: RunOptions = {}) {
  const full = await t.run(line, opts);
  const fast = await t.run(line, { ...opts, runner: quick });
  expect(comparable(fast)).toEqual(comparable(full));
  return full;
}

let jobId = '';
let unusedPort = 0;
let limited: Server;
let limitedUrl = '';
const work = mkdtempSync(join(tmpdir(), 'socialpub-quick-read-'));

beforeAll(async () => {
  for (const caption of ['first', 'second']) jobId = (await t.run(['publish', caption, '-p', 'twitter', '--at', '+48h', '--json'])).json<{ job_id: string }>().job_id;
  // A port nothing listens on: a server's, once closed.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  unusedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  // A daemon that answers every request 429, with a Retry-After too long to wait out.
  limited = createServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
    res.end(JSON.stringify({ success: false, error: { code: 'rate_limited', message: 'too many requests: 100 an hour', request_id: '5b1f0c3e-1111-4222-8333-944455556666' } }));
  });
  await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
  limitedUrl = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => limited.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

describe('the quick path prints and exits as runCli does', () => {
  it('lists jobs as JSON and as a table, with a page limit and the cursor to continue', async () => {
    const listed = await both('schedule list --json');
    expect(listed.code).toBe(0);
    expect(listed.json<{ posts: unknown[] }>().posts).toHaveLength(2);
    const page = await both('schedule list --limit 1 --json');
    expect(page.json<{ next_cursor: string | null }>().next_cursor).not.toBeNull();
    const table = await both('schedule list --limit 1 --no-color');
    expect(table.stdout).toMatch(/^JOB +STATUS +WHEN +TARGETS +CAPTION\n/);
    expect(table.stdout).toContain('more: --limit N, --all, or --cursor ');
    expect((await both('schedule list --all --status scheduled')).stdout).toContain('twitter.tweet');
  });

  it('shows one job, and says what is wrong with an unknown or malformed id', async () => {
    expect((await both(`status ${jobId} --json`)).json<{ job_id: string }>().job_id).toBe(jobId);
    expect((await both(`status ${jobId}`)).stdout).toContain(jobId);
    const missing = await both('status job_doesnotexist --json');
    expect(missing.code).toBe(4);
    expect(missing.json<{ error: { code: string } }>().error.code).toBe('not_found');
    expect((await both('status job_doesnotexist')).stderr).toMatch(/^error: /);
    const neither = await both('status nonsense');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('"nonsense" is neither a job id');
  });

  it('shows one job with schedule show, and says what is wrong with an unknown job or an address nothing answers', async () => {
    const shown = await both(`schedule show ${jobId} --json`);
    expect([shown.code, shown.json<{ job_id: string; status: string }>().job_id]).toEqual([0, jobId]);
    const table = await both(`schedule show ${jobId} --no-color`);
    expect(table.stdout).toContain(jobId);
    expect(table.stdout).toMatch(/^twitter +tweet +.+ scheduled$/m);
    const missing = await both('schedule show job_doesnotexist --json');
    expect([missing.code, missing.json<{ error: { code: string } }>().error.code]).toEqual([4, 'not_found']);
    expect((await both('schedule show job_doesnotexist')).stderr).toMatch(/^error: /);
    expect((await both(`schedule show ${jobId} --base-url http://127.0.0.1:${unusedPort}`)).stderr).toContain(`socialpub up --port ${unusedPort}`);
  });

  it('reports a request the daemon refuses (400) with its details, exit 2', async () => {
    const json = await both('schedule list --status bogus --json');
    expect(json.code).toBe(2);
    expect(json.json<{ error: { code: string; details: { path: string }[] } }>().error).toMatchObject({ code: 'invalid_request', details: [{ path: 'status' }] });
    expect((await both('schedule list --status bogus')).stderr).toMatch(/^error: status: status must be one of/);
  });

  it('hints at `socialpub up --port <port>` when nothing answers at the address given', async () => {
    const json = await both(`schedule list --base-url http://127.0.0.1:${unusedPort} --json`);
    expect(json.code).toBe(7);
    expect(json.json<{ error: { hint: string } }>().error.hint).toBe(`start it with \`socialpub up --port ${unusedPort}\`, or check --base-url`);
    const human = await both(`status ${jobId} --base-url http://127.0.0.1:${unusedPort}`);
    expect(human.stderr).toContain(`socialpub up --port ${unusedPort}`);
  });

  it('reports a rate limit with its retry time (exit 6)', async () => {
    const json = await both(`schedule list --base-url ${limitedUrl} --json`);
    expect(json.code).toBe(6);
    expect(json.json<{ error: { retry_after: number } }>().error.retry_after).toBe(3600);
    expect((await both(`status ${jobId} --base-url ${limitedUrl}`)).stderr).toMatch(/^error: /);
  });

  it('refuses a malformed key and a key the daemon does not know (exit 3)', async () => {
    expect((await both('schedule list --api-key nope --json')).code).toBe(3);
    const unknown = await both('schedule list --api-key sp_key_unknown_secret');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^error: /);
  });

  it('takes the address and key from flags, else the environment, else the config file', async () => {
    const configDir = join(work, 'config');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ 'base-url': t.daemon.url, 'api-key': t.key.api_key }));
    const fromConfig = await both('schedule list --json', { env: { SOCIALPUB_CONFIG_DIR: configDir, SOCIALPUB_BASE_URL: undefined, SOCIALPUB_API_KEY: undefined } });
    expect(fromConfig.json<{ posts: unknown[] }>().posts).toHaveLength(2);
    const fromFlags = await both(`schedule list --base-url ${t.daemon.url} --api-key ${t.key.api_key} --json`, { env: { SOCIALPUB_BASE_URL: undefined, SOCIALPUB_API_KEY: undefined } });
    expect(fromFlags.json<{ posts: unknown[] }>().posts).toHaveLength(2);
    const noKey = await both('schedule list --json', { env: { SOCIALPUB_CONFIG_DIR: join(work, 'empty'), SOCIALPUB_API_KEY: undefined } });
    expect(noKey.code).toBe(3);
  });

  // Last: it adds a job the tests above do not count.
  it('follows a settled job with schedule show --follow: its events, then the job', async () => {
    const made = (await t.run(['publish', 'to cancel', '-p', 'twitter', '--at', '+48h', '--json'])).json<{ job_id: string }>().job_id;
    expect((await t.run(['schedule', 'cancel', made, '--json'])).code).toBe(0);
    const followed = await both(`schedule show ${made} --follow --json`);
    expect(followed.code).toBe(0);
    expect(JSON.parse(followed.stdout.trimEnd().split('\n').at(-1)!)).toMatchObject({ job_id: made, status: 'cancelled' });
    expect((await both(`schedule show ${made} --follow --no-color`)).stdout).toContain('cancelled');
  });
});

describe('which command lines the quick path takes', () => {
  it.each([
    ['schedule list', { command: 'schedule list', globals: { json: false, color: true }, options: { status: 'all', all: false } }],
    [
      '--json schedule list --status scheduled --limit 5 --cursor abc --base-url http://127.0.0.1:1 --api-key k --data-dir d --no-color --all',
      { command: 'schedule list', globals: { json: true, color: false, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', dataDir: 'd' }, options: { status: 'scheduled', limit: 5, cursor: 'abc', all: true } },
    ],
    ['status job_1 --json', { command: 'status', globals: { json: true, color: true }, id: 'job_1' }],
    ['schedule show job_1', { command: 'schedule show', globals: { json: false, color: true }, jobId: 'job_1', follow: false }],
    ['schedule show job_1 --follow --json', { command: 'schedule show', globals: { json: true, color: true }, jobId: 'job_1', follow: true }],
  ])('takes `%s`', (line, read) => {
    expect(quickReadOf(split(line))).toEqual(read);
  });

  it.each([
    'schedule list --help',
    'schedule list -h',
    'schedule list --limit=5',
    'schedule list --limit 0',
    'schedule list --limit many',
    'schedule list --status',
    'schedule list --status --json',
    'schedule list --json --json',
    'schedule list extra',
    'schedule list --follow',
    'schedule show',
    'schedule show job_1 job_2',
    'schedule show job_1 --status scheduled',
    'schedule show job_1 --follow --follow',
    'schedule',
    'status',
    'status job_1 job_2',
    'status job_1 --all',
    'status job_1 --limit 5',
    'status -- job_1',
    '--version',
    'publish hello -p twitter',
  ])('leaves `%s` to commander', (line) => {
    expect(quickReadOf(split(line))).toBeUndefined();
  });

  it("knows each command's flags and the global ones as commander defines them", async () => {
    const io: Io = { stdout: new Writable({ write: (_c, _e, done) => done() }), stderr: new Writable({ write: (_c, _e, done) => done() }), stdin: new PassThrough(), env: {}, stdoutIsTTY: false, interactive: false, cwd: process.cwd() };
    for (const name of Object.keys(QUICK_COMMANDS) as QuickCommandName[]) {
      const program = await buildProgram(io, { argv: [...QUICK_COMMANDS[name].words] });
      let command: CommandUnknownOpts = program;
      for (const word of QUICK_COMMANDS[name].words) command = command.commands.find((c) => c.name() === word) as CommandUnknownOpts;
      const longs = (c: CommandUnknownOpts) => c.options.map((o) => o.long).filter((l): l is string => typeof l === 'string');
      expect(new Set(longs(command)), name).toEqual(quickCommandFlags(name));
      expect(command.registeredArguments.length, name).toBe(QUICK_COMMANDS[name].args);
      expect(new Set(longs(program))).toEqual(new Set(['--version', ...GLOBAL_VALUES, ...GLOBAL_SWITCHES]));
    }
  });
});
