import type { CommandFlags } from './api-fields';
import { Ctx, type GlobalOptions } from './context';
import { toFailure, unreachableHint, type ExitCode, type Failure } from './errors';
import type { Io } from './io';
import { scopeRefusal } from './scope-refusal';
import { Logger } from './ui/logger';

/**
 * What a command's action threw, as the failure to report: the daemon's fields named as the
 * command's flags (`flags`: their long names; undefined when no command ran), when nothing
 * answered a hint naming the address the command used, and a key's scope refusal in the words
 * of the command typed (`command`: `socialpub publish`; scope-refusal.ts). Shared by runCli
 * (main.ts) and the read commands run without commander (quick-read.ts), so both report alike.
 */
export async function actionFailure(err: unknown, flags: CommandFlags, io: Io, globals: Pick<GlobalOptions, 'baseUrl' | 'apiKey' | 'dataDir'>, command?: string): Promise<Failure> {
  const failure = scopeRefusal(toFailure(err, flags), command);
  if (failure.code === 'daemon_unreachable') failure.hint = unreachableHint(await addressOf(io, globals));
  return failure;
}

/** The daemon address the command used (flags, environment, config, the running daemon, the default), for the unreachable hint; null when it cannot be told. */
async function addressOf(io: Io, { baseUrl, apiKey, dataDir }: Pick<GlobalOptions, 'baseUrl' | 'apiKey' | 'dataDir'>): Promise<string | null> {
  try {
    return await new Ctx(io, { json: true, color: false, baseUrl, apiKey, dataDir }).baseUrl();
  } catch {
    return null;
  }
}

/** Prints a failure (one JSON document under --json, else `error:` with its hint and details on stderr) and returns its exit code. */
export function printFailure(io: Io, argv: readonly string[], failure: Failure): ExitCode {
  const json = argv.includes('--json');
  const color = !argv.includes('--no-color');
  const log = new Logger({ io, json, color });
  if (json) {
    log.data({
      success: false,
      error: {
        code: failure.code,
        message: failure.message,
        ...(failure.hint ? { hint: failure.hint } : {}),
        ...(failure.details ? { details: failure.details } : {}),
        ...(failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : {}),
        ...(failure.requestId ? { request_id: failure.requestId } : {}),
        exit_code: failure.exitCode,
      },
      ...(failure.data !== undefined ? { data: failure.data } : {}),
    });
  } else {
    log.error(failure.message, failure.hint);
    for (const d of failure.detailsInHint ? [] : (failure.details ?? [])) {
      const detail = d as { path?: string; flag?: string; message?: string };
      const where = detail.flag ?? detail.path;
      const text = detail.message ?? JSON.stringify(d);
      // `timezone is not …` under --tz reads `--tz is not …`.
      const named = detail.flag && detail.path && text.startsWith(`${detail.path} `);
      const line = named ? `${detail.flag}${text.slice((detail.path as string).length)}` : `${where ? `${where}: ` : ''}${text}`;
      // The daemon's message is its first problem; say it once.
      if (line !== failure.message) io.stderr.write(`  - ${line}\n`);
    }
  }
  return failure.exitCode;
}
