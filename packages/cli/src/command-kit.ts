import { InvalidArgumentError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Ctx } from './context';
import { countOf } from './count-input';

/**
 * What a command definition (`commands/<name>.command.ts`) gets besides its parent
 * command: the context of the running command, built from the global flags after
 * parsing. Call it inside the action only.
 */
export interface Kit {
  ctx(): Ctx;
}

/** Adds an "Examples:" block to a command's --help. */
export function examples<C extends CommandUnknownOpts>(cmd: C, lines: string[]): C {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Option parser for repeatable flags: `--media a --media b` gives `['a', 'b']`. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

export function parseCount(v: string): number {
  const n = countOf(v);
  if (n === undefined) throw new InvalidArgumentError('must be a whole number of at least 1');
  return n;
}
