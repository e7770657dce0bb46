import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Io } from './io';
import type { Kit } from './command-kit';
import { Ctx } from './context';
import { EXIT, toFailure, type Failure } from './errors';
import { createProgram, type Program } from './program';
import { Logger } from './ui/logger';
import { defineAuth, defineWhoami } from './commands/auth.command';
import { defineCompletion } from './commands/completion.command';
import { defineConfig } from './commands/config.command';
import { defineConnect } from './commands/connect.command';
import { defineConnections } from './commands/connections.command';
import { defineDaemon, defineDown } from './commands/daemon.command';
import { defineEvents } from './commands/events.command';
import { defineKeys } from './commands/keys.command';
import { defineMcp } from './commands/mcp.command';
import { definePlatforms } from './commands/platforms.command';
import { definePrepare } from './commands/prepare.command';
import { definePublish } from './commands/publish.command';
import { defineSandbox } from './commands/sandbox.command';
import { defineQueue } from './commands/queue.command';
import { defineSchedule } from './commands/schedule.command';
import { defineSeries } from './commands/series.command';
import { defineService } from './commands/service.command';
import { defineSettings } from './commands/settings.command';
import { defineStatus } from './commands/status.command';
import { defineUnpublish } from './commands/unpublish.command';
import { defineUp } from './commands/up.command';
import { defineWebhooks } from './commands/webhooks.command';

/**
 * Every command, in the order `socialpub --help` lists them. Each definition owns its
 * flags, help and examples (commands/<name>.command.ts) and `import()`s its action only
 * when it runs, so `--help` never loads the SDK, the daemon, prompts or spinners.
 */
const COMMANDS: ((program: Program, kit: Kit) => void)[] = [
  defineUp,
  defineDown,
  defineDaemon,
  defineService,
  defineKeys,
  defineConnect,
  defineConnections,
  defineSettings,
  defineSandbox,
  definePublish,
  defineSchedule,
  defineQueue,
  defineSeries,
  definePrepare,
  defineStatus,
  defineUnpublish,
  defineAuth,
  defineWhoami,
  definePlatforms,
  defineEvents,
  defineWebhooks,
  defineMcp,
  defineConfig,
  defineCompletion,
];

/** The whole command tree; a command's context is built from the global flags once parsed. */
export function buildProgram(io: Io, options: { json?: boolean } = {}): Program {
  const program = createProgram(io, options);
  const kit: Kit = {
    ctx: () => {
      const g = program.opts();
      return new Ctx(io, { json: g.json === true, color: g.color, baseUrl: g.baseUrl, apiKey: g.apiKey, dataDir: g.dataDir });
    },
  };
  for (const define of COMMANDS) define(program, kit);
  return program;
}

/**
 * Runs one command line in-process and returns its exit code. The only place that
 * turns errors into exit codes and error output (JSON under --json).
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram(io, { json });
  // The command being dispatched to: the group, when one is called without a subcommand.
  let dispatched: CommandUnknownOpts = program;
  program.hook('preSubcommand', (_parent, sub) => {
    dispatched = sub;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    let failure: Failure;
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') {
        // A group called without a subcommand: commander printed its help on stderr, or,
        // under --json, left it out for this one document.
        if (!json) return EXIT.usage;
        failure = missingSubcommand(dispatched);
      } else {
        failure = { exitCode: EXIT.usage, code: 'usage', message: err.message.replace(/^error: /, ''), hint: 'see `socialpub <command> --help`' };
      }
    } else {
      failure = toFailure(err);
    }
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
      for (const d of failure.details ?? []) {
        const detail = d as { path?: string; flag?: string; message?: string };
        const where = detail.flag ?? detail.path;
        const line = `${where ? `${where}: ` : ''}${detail.message ?? JSON.stringify(d)}`;
        // The daemon's message is its first problem; say it once.
        if (line !== failure.message) io.stderr.write(`  - ${line}\n`);
      }
    }
    return failure.exitCode;
  }
}

function missingSubcommand(group: CommandUnknownOpts): Failure {
  const path = [];
  for (let c: CommandUnknownOpts | null = group; c; c = c.parent) path.unshift(c.name());
  const subcommands = group.commands.map((c) => c.name()).filter((n) => n !== 'help');
  return {
    exitCode: EXIT.usage,
    code: 'usage',
    message: `\`${path.join(' ')}\` needs a subcommand: ${subcommands.join(', ')}`,
    hint: `see \`${path.join(' ')} --help\``,
  };
}
