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

/**
 * The real process. process.stdin is made on first use: most commands never read it, and
 * making it costs a start several modules (for a file or /dev/null, fs streams and with
 * them fs/promises and readline), so whether it is a terminal is asked of the fd.
 */
export function processIo(): Io {
  // stderr first: for a pipe or a file (a script, an agent) that answers without loading
  // node:tty, about 0.4 ms of CPU of a start; for a terminal, making it loaded node:tty already.
  const interactive = Boolean(process.stderr.isTTY) && process.getBuiltinModule('node:tty').isatty(0);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    interactive,
    cwd: process.cwd(),
  };
}
