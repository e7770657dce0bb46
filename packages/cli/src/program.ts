import { Command } from '@commander-js/extra-typings';
import { examples } from './command-kit';
import type { Io } from './io';
import { VERSION } from './version';

/**
 * The root `socialpub` command: the global flags every command accepts, where output
 * goes, the top-level help. Commands are attached to it by main.ts. Under `--json` the
 * help commander prints for a group called without a subcommand is left out: runCli
 * prints the one JSON document instead.
 */
export function createProgram(io: Io, { json = false }: { json?: boolean } = {}) {
  const program = new Command('socialpub')
    .description('Self-hosted social publishing: run the daemon, connect accounts, publish and schedule.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print data only, as JSON (errors too)')
    .option('--base-url <url>', 'daemon address (env SOCIALPUB_BASE_URL)')
    .option('--api-key <key>', 'API key (env SOCIALPUB_API_KEY)')
    .option('--data-dir <dir>', 'data directory for local admin and the daemon (env SOCIALPUB_HOME)')
    .option('--no-color', 'no colours (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => (json ? undefined : io.stderr.write(s)),
      // Usage errors are printed by runCli (human or JSON), not by commander.
      outputError: () => undefined,
    });
  examples(program, [
    './scripts/setup && bin/socialpub up',
    'socialpub connect twitter --sandbox',
    'socialpub publish "hello" -p twitter --now --wait',
    'socialpub schedule list --json | jq ".posts[].job_id"',
  ]);
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 conflict, 6 rate limited,\n' +
      '7 daemon unreachable, 8 finished but not everything succeeded, 130 interrupted.\n' +
      'Docs: docs/cli.md\n',
  );
  return program;
}

/** The root command with its global flags typed: `program.opts().json` is a `boolean | undefined`. */
export type Program = ReturnType<typeof createProgram>;
