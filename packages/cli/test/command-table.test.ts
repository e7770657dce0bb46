import { describe, expect, it } from 'vitest';
import { COMMANDS, commandsFor } from '../src/command-table';
import { processIo } from '../src/io';
import { buildProgram } from '../src/main';
import { createProgram } from '../src/program';

// The table main.ts loads definitions from (docs/architecture.md, "Start-up"): a command
// line loads only the definition of the command it names, so each entry's names must be
// exactly what its definition adds, or that command would go missing.
describe('the command table', () => {
  const kit = { ctx: () => { throw new Error('not run'); } };

  it.each(COMMANDS.map((c) => [c.names.join(', '), c] as const))('%s: the names are what the definition adds', async (_name, entry) => {
    const program = createProgram(processIo());
    (await entry.load())(program, kit);
    expect(program.commands.flatMap((c) => [c.name(), ...c.aliases()])).toEqual([...entry.names]);
  });

  it('lists every command in the help order, none twice', async () => {
    const all = (await buildProgram(processIo())).commands.map((c) => c.name());
    expect(all).toEqual(COMMANDS.flatMap((c) => c.names));
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 3)).toEqual(['up', 'down', 'daemon']);
  });

  it('picks the one command a line names, after global flags and their values', () => {
    const names = (argv: string[]) => commandsFor(argv).flatMap((c) => c.names);
    expect(names(['schedule', 'list', '--json'])).toEqual(['schedule']);
    expect(names(['--json', '--base-url', 'http://127.0.0.1:1', 'status', 'job_1'])).toEqual(['status']);
    expect(names(['--api-key', 'auth', 'whoami'])).toEqual(['whoami']);
    expect(names(['--no-color', 'auth', 'validate'])).toEqual(['auth']);
  });

  it('loads every command when the line names none, an unknown one, or completion', () => {
    const count = (argv: string[]) => commandsFor(argv).length;
    expect(count([])).toBe(COMMANDS.length);
    expect(count(['--help'])).toBe(COMMANDS.length);
    expect(count(['help', 'schedule'])).toBe(COMMANDS.length);
    expect(count(['schedul', 'list'])).toBe(COMMANDS.length);
    expect(count(['completion', 'bash'])).toBe(COMMANDS.length);
    expect(count(['--', 'schedule'])).toBe(COMMANDS.length);
  });
});
