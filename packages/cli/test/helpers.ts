import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../src/io';
import { isAlive } from '../src/local/daemon-files';
import { runCli } from '../src/main';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = Record<string, unknown>>(): T;
}

class Sink extends Writable {
  text = '';
  constructor(
    private readonly onText?: (all: string) => void,
    private readonly onChunk?: (chunk: string) => void,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.text += chunk.toString();
    this.onChunk?.(chunk.toString());
    this.onText?.(this.text);
    done();
  }
}

/** Splits a command line like a shell would for simple quoting ("a b", 'c d'). */
export function argv(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return out;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  interactive?: boolean;
  stdoutIsTTY?: boolean;
  cwd?: string;
  stop?: AbortSignal;
  /** Called with each chunk written to stdout. */
  onStdout?: (chunk: string) => void;
  /** Called with everything written to stderr so far, after each write. */
  onStderr?: (all: string) => void;
  /** What the command reads as stdin (prompts read keys from it). */
  stdin?: NodeJS.ReadableStream & PassThrough;
  /** What runs the command line; default runCli (test/quick-read.test.ts runs the quick path too). */
  runner?: (argv: string[], io: Io) => Promise<number>;
}

/** A temp home for one test file: config dir and data dir, removed by cleanup(). */
export function tempHome() {
  const root = mkdtempSync(join(tmpdir(), 'socialpub-cli-'));
  const home = {
    root,
    configDir: join(root, 'config'),
    dataDir: join(root, 'data'),
    env: { SOCIALPUB_CONFIG_DIR: join(root, 'config'), SOCIALPUB_HOME: join(root, 'data'), HOME: root, NO_COLOR: '1' } as Record<string, string | undefined>,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
    /** Runs one command line in-process with this home's config and data dirs. */
    run: (line: string | string[], opts: RunOptions = {}) => runIn(line, { ...opts, env: { ...home.env, ...opts.env } }),
  };
  return home;
}

export async function runIn(line: string | string[], opts: RunOptions = {}): Promise<CliResult> {
  const stdout = new Sink(undefined, opts.onStdout);
  const stderr = new Sink(opts.onStderr);
  const io: Io = {
    stdout,
    stderr,
    stdin: opts.stdin ?? new PassThrough(),
    env: { PATH: process.env.PATH, ...opts.env },
    stdoutIsTTY: opts.stdoutIsTTY ?? false,
    interactive: opts.interactive ?? false,
    cwd: opts.cwd ?? process.cwd(),
    ...(opts.stop ? { stop: opts.stop } : {}),
  };
  const code = await (opts.runner ?? runCli)(Array.isArray(line) ? line : argv(line), io);
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    json<T>() {
      try {
        return JSON.parse(stdout.text) as T;
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout.text}\nstderr:\n${stderr.text}`);
      }
    },
  };
}

/**
 * After a test that started a real daemon on `dataDir`: `down` (through whatever ran it),
 * then SIGKILL whatever daemon.json still names, so no test leaves a daemon behind.
 */
export async function endDaemon(dataDir: string, down: () => Promise<unknown>): Promise<void> {
  await down();
  try {
    const { pid } = JSON.parse(readFileSync(join(dataDir, 'daemon.json'), 'utf8')) as { pid: number };
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  } catch {
    // no state file: nothing runs
  }
}
