import type { Readable, Writable } from 'node:stream';

/**
 * Everything a command touches outside itself. The entry point passes the real process;
 * tests pass buffers and a temp config dir, so commands never read process.* directly.
 */
export interface Io {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Readonly<Record<string, string | undefined>>;
  /** stdout is a terminal (tables, colours). */
  stdoutIsTTY: boolean;
  /** stdin and stderr are a terminal: a person can answer prompts and watch spinners. */
  interactive: boolean;
  /** Current directory, for resolving local media files. */
  cwd: string;
  /** Ends long-running commands (daemon run, logs --follow). Default: SIGINT or SIGTERM. */
  stop?: AbortSignal;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    cwd: process.cwd(),
  };
}
