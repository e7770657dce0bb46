import { withRetryTime } from '@socialpub/core/rate-limited';

/**
 * Typed errors and the documented exit codes. Commands throw; only the entry point
 * (main.ts) turns an error into an exit code, a one-line message and a suggestion.
 */
import { messageInFlags, withFlag, type CommandFlags } from './api-fields';

export const EXIT = Object.freeze({
  ok: 0,
  /** Anything unexpected, or the daemon answered 5xx. */
  error: 1,
  /** Bad flags or arguments, a missing argument without a terminal, or a 400/413/415. */
  usage: 2,
  /** No key, or the key was refused (401), or the action is not allowed (403). */
  auth: 3,
  /** The job, task, key or connection does not exist (404, 410). */
  notFound: 4,
  /** The thing is not in a state that allows this (409). */
  conflict: 5,
  /** Too many requests (429); the message says when to retry. */
  rateLimited: 6,
  /** The daemon is not running or not reachable. */
  unreachable: 7,
  /** The work ran but did not fully succeed (a waited-for target failed, a file was refused). */
  incomplete: 8,
  /** Interrupted (Ctrl-C, a prompt closed). */
  interrupted: 130,
});
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface CliErrorOptions {
  /** A one-line suggestion printed under the message ("run `socialpub up` first"). */
  hint?: string;
  details?: unknown[];
  cause?: unknown;
  /** Extra data printed under --json (for example the job after a failed --wait). */
  data?: unknown;
}

export class CliError extends Error {
  override name = 'CliError';
  readonly hint: string | undefined;
  readonly details: unknown[] | undefined;
  readonly data: unknown;
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
    options: CliErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.details = options.details;
    this.data = options.data;
  }
}

export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, options: CliErrorOptions = {}) {
    super('usage', message, EXIT.usage, options);
  }
}

export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  constructor(message: string, options: CliErrorOptions = {}) {
    super('not_found', message, EXIT.notFound, options);
  }
}

export class DaemonUnreachableError extends CliError {
  override name = 'DaemonUnreachableError';
  constructor(message: string, options: CliErrorOptions = {}) {
    super('daemon_unreachable', message, EXIT.unreachable, { hint: unreachableHint(null), ...options });
  }
}

export class InterruptedError extends CliError {
  override name = 'InterruptedError';
  constructor(message = 'interrupted') {
    super('interrupted', message, EXIT.interrupted);
  }
}

const STATUS_EXIT: Record<number, ExitCode> = {
  400: EXIT.usage,
  401: EXIT.auth,
  403: EXIT.auth,
  404: EXIT.notFound,
  409: EXIT.conflict,
  410: EXIT.notFound,
  413: EXIT.usage,
  415: EXIT.usage,
  429: EXIT.rateLimited,
};

/** The port `socialpub up` and the daemon listen on unless told otherwise. */
export const DEFAULT_PORT = 8787;

/**
 * What to do when nothing answers at the daemon's address: start it — on the port the CLI
 * is pointed at, when that is not the default (`socialpub up` alone would start it where
 * the CLI does not look) — or correct the address.
 */
export function unreachableHint(baseUrl: string | null): string {
  let port: number | null = null;
  try {
    if (baseUrl) {
      const url = new URL(baseUrl);
      port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    }
  } catch {
    // not a URL: the generic hint
  }
  const up = port !== null && port !== DEFAULT_PORT ? `socialpub up --port ${port}` : 'socialpub up';
  return `start it with \`${up}\`, or check --base-url`;
}

/** The command that connects each platform a not-connected error names (never a `<platform>` placeholder). */
export function connectHint(platforms: readonly string[]): string {
  if (platforms.length === 0) return 'connect it first: `socialpub connect <platform> --sandbox` (or live)';
  const commands = platforms.map((p) => `\`socialpub connect ${p} --sandbox\``).join(', ');
  return `connect ${platforms.length === 1 ? 'it' : 'them'} first: ${commands} (or live, without --sandbox)`;
}

const platformsOf = (details: unknown): string[] =>
  Array.isArray(details) ? [...new Set(details.flatMap((d) => (typeof (d as { platform?: unknown }).platform === 'string' ? [(d as { platform: string }).platform] : [])))] : [];

const CODE_HINT: Record<string, string> = {
  unauthorized: 'check the key: `socialpub auth validate`, or make one with `socialpub keys create`',
  facebook_page_not_selected: 'run `socialpub connect facebook` again and pick a page',
  https_required: 'the daemon sits behind a TLS proxy: use its https:// address as --base-url',
  insufficient_scope: "this key's scope does not allow it (see `socialpub keys list`): use a key of the scope the message names (`socialpub keys create --scope <scope>`)",
};

/** What the entry point prints and exits with, from any thrown value. */
export interface Failure {
  exitCode: ExitCode;
  code: string;
  message: string;
  hint?: string;
  details?: unknown[];
  retryAfter?: number;
  requestId?: string;
  data?: unknown;
  /** The hint already says what the details would (the platforms to connect): they go to --json only. */
  detailsInHint?: boolean;
}

interface ApiLikeError {
  status?: unknown;
  code?: unknown;
  message: string;
  details?: unknown;
  retryAfter?: unknown;
  requestId?: unknown;
  name: string;
}

/**
 * Maps CLI errors, SDK errors (duck-typed so the SDK need not be loaded just to map an
 * error) and anything else to an exit code. `flags`: the long options of the command that
 * ran, so that fields are named as that command's flags (api-fields.ts).
 */
export function toFailure(err: unknown, flags?: CommandFlags): Failure {
  if (err instanceof CliError) {
    const detailsInHint = err.code === 'platform_not_connected' && platformsOf(err.details).length > 0 ? true : undefined;
    return strip({ exitCode: err.exitCode, code: err.code, message: err.message, hint: err.hint, details: err.details?.map((d) => withFlag(d, flags)), data: err.data, detailsInHint });
  }
  if (err instanceof Error) {
    const e = err as ApiLikeError;
    if (typeof e.status === 'number') {
      const code = typeof e.code === 'string' ? e.code : `http_${e.status}`;
      const exitCode = STATUS_EXIT[e.status] ?? EXIT.error;
      const retryAfter = typeof e.retryAfter === 'number' ? e.retryAfter : undefined;
      // A 429 says what ran out and when to try again, local time included, in its message (core's withRetryTime): no hint repeats it.
      const limited = exitCode === EXIT.rateLimited;
      let hint = limited ? undefined : CODE_HINT[code];
      // The daemon's message names the platforms ("no active connection for tiktok"); the hint gives each one's command.
      const toConnect = code === 'platform_not_connected' ? platformsOf(e.details) : [];
      if (toConnect.length > 0) hint = connectHint(toConnect);
      const details = Array.isArray(e.details) ? e.details.map((d) => withFlag(d, flags)) : undefined;
      return strip({
        exitCode,
        code,
        message: limited ? withRetryTime(e.message, retryAfter, Date.now()) : messageInFlags(e.message, details, flags),
        hint,
        details,
        retryAfter,
        requestId: typeof e.requestId === 'string' ? e.requestId : undefined,
        detailsInHint: toConnect.length > 0 ? true : undefined,
      });
    }
    // The SDK refuses to send without a key (no status: nothing reached the daemon).
    if (e.code === 'missing_api_key') {
      return { exitCode: EXIT.auth, code: 'missing_api_key', message: e.message, hint: 'run `socialpub up` or set SOCIALPUB_API_KEY' };
    }
    if (e.name === 'APIConnectionError' || e.name === 'APIConnectionTimeoutError' || isConnectionCode((err as NodeJS.ErrnoException).code)) {
      return {
        exitCode: EXIT.unreachable,
        code: 'daemon_unreachable',
        message: e.name.startsWith('APIConnection') ? err.message : `cannot reach the daemon: ${err.message}`,
        hint: unreachableHint(null),
      };
    }
    if (e.name === 'AdminError') {
      const code = (err as { code?: string }).code;
      const exitCode = code === 'not_found' ? EXIT.notFound : code === 'conflict' ? EXIT.conflict : EXIT.usage;
      return { exitCode, code: code === 'invalid' ? 'invalid_request' : (code ?? 'error'), message: err.message };
    }
    if (e.name === 'ConnectError') return { exitCode: EXIT.error, code: 'connect_failed', message: err.message };
    if (e.name === 'OAuthFlowError') {
      const reason = (err as { reason?: string }).reason;
      if (reason === 'aborted') return { exitCode: EXIT.interrupted, code: 'interrupted', message: err.message };
      return { exitCode: reason === 'denied' ? EXIT.auth : EXIT.error, code: `oauth_${reason ?? 'failed'}`, message: err.message };
    }
    if (e.name === 'ConfigError') return { exitCode: EXIT.usage, code: 'usage', message: err.message };
    if (e.name === 'ExitPromptError' || e.name === 'AbortPromptError' || e.name === 'AbortError') {
      return { exitCode: EXIT.interrupted, code: 'interrupted', message: 'cancelled' };
    }
    return { exitCode: EXIT.error, code: 'error', message: err.message };
  }
  return { exitCode: EXIT.error, code: 'error', message: String(err) };
}

function isConnectionCode(code: unknown): boolean {
  return typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(code);
}

function strip<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
