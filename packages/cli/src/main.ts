import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Io } from './io';
import type { Kit } from './command-kit';
import { Ctx } from './context';
import { EXIT, type Failure } from './errors';
import { actionFailure, printFailure } from './failure-output';
import { createProgram, type Program } from './program';
import { COMMANDS, commandsFor } from './command-table';

/**
 * The command tree for `argv`: the one command it names when that is enough (the usual
 * case: only that definition loads, docs/architecture.md "Start-up"), else every command.
 * A command's context is built from the global flags once parsed.
 */
export async function buildProgram(io: Io, options: { json?: boolean; argv?: readonly string[] } = {}): Promise<Program> {
  const program = createProgram(io, options);
  const kit: Kit = {
    ctx: () => {
      const g = program.opts();
      return new Ctx(io, { json: g.json === true, color: g.color, baseUrl: g.baseUrl, apiKey: g.apiKey, dataDir: g.dataDir });
    },
  };
  const entries = options.argv ? commandsFor(options.argv) : COMMANDS;
  const defines = await Promise.all(entries.map((entry) => entry.load()));
  for (const define of defines) define(program, kit);
  return program;
}

/**
 * Runs one command line in-process and returns its exit code. The only place that
 * turns errors into exit codes and error output (JSON under --json).
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  const program = await buildProgram(io, { json, argv });
  // The command being dispatched to: the group, when one is called without a subcommand.
  let dispatched: CommandUnknownOpts = program;
  program.hook('preSubcommand', (_parent, sub) => {
    dispatched = sub;
  });
  // The command whose action runs (a subcommand of a group too): its flags name the fields of errors.
  program.hook('preAction', (_root, action) => {
    dispatched = action;
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
      // The fields of the daemon's errors named as the flags of the command that ran.
      const flags = dispatched === program ? undefined : new Set(dispatched.options.map((o) => o.long).filter((l): l is string => typeof l === 'string'));
      const g = program.opts();
      failure = await actionFailure(err, flags, io, { baseUrl: g.baseUrl, apiKey: g.apiKey, dataDir: g.dataDir }, dispatched === program ? undefined : commandPath(dispatched).join(' '));
    }
    return printFailure(io, argv, failure);
  }
}

/** `socialpub schedule approve`: the command's name under each of its parents. */
function commandPath(command: CommandUnknownOpts): string[] {
  const path = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) path.unshift(c.name());
  return path;
}

function missingSubcommand(group: CommandUnknownOpts): Failure {
  const path = commandPath(group);
  const subcommands = group.commands.map((c) => c.name()).filter((n) => n !== 'help');
  return {
    exitCode: EXIT.usage,
    code: 'usage',
    message: `\`${path.join(' ')}\` needs a subcommand: ${subcommands.join(', ')}`,
    hint: `see \`${path.join(' ')} --help\``,
  };
}
