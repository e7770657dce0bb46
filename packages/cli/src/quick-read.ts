import type { ScheduleListOptions } from './commands/schedule/list';
import type { GlobalOptions } from './context';
import { countOf } from './count-input';

/**
 * The reads a script or an agent runs most (`schedule list`, `status <id>`, `schedule show <id>`),
 * recognised from the command line without commander: loading and running commander and
 * the command's definition cost `schedule list --json` about 1.3 ms of CPU, a tenth of what
 * it spends above a bare `node` (docs/operations.md, "Start-up"). Only a plain command line is taken: the command words,
 * its own flags and the global ones, each at most once, every flag's value a separate
 * argument not starting with `-`, a `--limit` commander would take. Anything else (`--help`,
 * `--flag=value`, an unknown flag or argument, a bad count) is left to commander, which
 * says what is wrong; what is taken runs the same action with the same context and reports
 * failures through the same code (run-quick-read.ts), so its output and exit code are
 * runCli's (test/quick-read.test.ts runs both).
 */
export type QuickRead = { globals: GlobalOptions } & (
  | { command: 'schedule list'; options: ScheduleListOptions }
  | { command: 'status'; id: string }
  // --follow too: the same action follows the job's events as through commander.
  | { command: 'schedule show'; jobId: string; follow: boolean }
);

/** The global flags (program.ts): those taking a value, and switches. */
export const GLOBAL_VALUES = ['--base-url', '--api-key', '--data-dir'] as const;
export const GLOBAL_SWITCHES = ['--json', '--no-color'] as const;

/**
 * Each command taken: its words, how many arguments follow them, and its flags as its
 * definition declares them (commands/schedule.command.ts, status.command.ts), which also
 * name the daemon's fields in its errors.
 */
export const QUICK_COMMANDS = {
  'schedule list': { words: ['schedule', 'list'], args: 0, values: ['--status', '--limit', '--cursor'], switches: ['--all'] },
  status: { words: ['status'], args: 1, values: [], switches: [] },
  'schedule show': { words: ['schedule', 'show'], args: 1, values: [], switches: ['--follow'] },
} as const satisfies Record<string, { words: readonly string[]; args: number; values: readonly string[]; switches: readonly string[] }>;

/** Every flag taken that has no value. */
const SWITCHES = new Set<string>([...GLOBAL_SWITCHES, ...Object.values(QUICK_COMMANDS).flatMap((c) => c.switches)]);

export type QuickCommandName = keyof typeof QUICK_COMMANDS;

/** The long flags of a quick command, as commander lists its options (for the names of fields in errors). */
export function quickCommandFlags(name: QuickCommandName): ReadonlySet<string> {
  const { values, switches } = QUICK_COMMANDS[name];
  return new Set<string>([...values, ...switches]);
}

/** The quick read a command line is, or undefined: commander's to parse. */
export function quickReadOf(argv: readonly string[]): QuickRead | undefined {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    if (values.has(arg) || switches.has(arg)) return undefined;
    if (SWITCHES.has(arg)) {
      switches.add(arg);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('-')) return undefined;
    values.set(arg, value);
    i++;
  }
  const name = (Object.keys(QUICK_COMMANDS) as QuickCommandName[]).find((n) => QUICK_COMMANDS[n].words.every((w, i) => positional[i] === w));
  if (name === undefined) return undefined;
  const command = QUICK_COMMANDS[name];
  if (positional.length !== command.words.length + command.args) return undefined;
  const known = (list: readonly string[], flag: string) => list.includes(flag);
  for (const flag of values.keys()) if (!known(GLOBAL_VALUES, flag) && !known(command.values, flag)) return undefined;
  for (const flag of switches) if (!known(GLOBAL_SWITCHES, flag) && !known(command.switches, flag)) return undefined;

  const globals: GlobalOptions = { json: switches.has('--json'), color: !switches.has('--no-color') };
  const baseUrl = values.get('--base-url');
  const apiKey = values.get('--api-key');
  const dataDir = values.get('--data-dir');
  if (baseUrl !== undefined) globals.baseUrl = baseUrl;
  if (apiKey !== undefined) globals.apiKey = apiKey;
  if (dataDir !== undefined) globals.dataDir = dataDir;
  if (name === 'status') return { globals, command: name, id: positional[1] as string };
  if (name === 'schedule show') return { globals, command: name, jobId: positional[2] as string, follow: switches.has('--follow') };

  const options: ScheduleListOptions = { status: values.get('--status') ?? 'all', all: switches.has('--all') };
  const limit = values.get('--limit');
  if (limit !== undefined) {
    const n = countOf(limit);
    if (n === undefined) return undefined;
    options.limit = n;
  }
  const cursor = values.get('--cursor');
  if (cursor !== undefined) options.cursor = cursor;
  return { globals, command: name, options };
}
