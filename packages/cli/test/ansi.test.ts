import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { ansiStyles } from '../src/ui/ansi';

// The CLI's own styles replace chalk (start-up, docs/architecture.md): they must write
// exactly what chalk writes at its basic level, nesting and line breaks included.
describe('ansiStyles', () => {
  const chalk = new Chalk({ level: 1 });
  const ours = ansiStyles(true);
  const names = ['bold', 'dim', 'green', 'red', 'yellow', 'cyan'] as const;

  it.each(names)('%s writes what chalk writes', (name) => {
    for (const text of ['plain', '', 'two\nlines', 'crlf\r\nline', `a ${chalk.red('red')} b`, `x ${chalk.bold('b')} ${chalk.dim('d')} y`, `out ${chalk.green(`in ${chalk.cyan('deep')} in`)} out`]) {
      expect(JSON.stringify(ours[name](text))).toBe(JSON.stringify(chalk[name](text)));
    }
  });

  it('nests as chalk does', () => {
    expect(ours.bold(ours.red('x') + ' y')).toBe(chalk.bold(chalk.red('x') + ' y'));
    expect(ours.dim(`hint: ${ours.dim('inner')} after`)).toBe(chalk.dim(`hint: ${chalk.dim('inner')} after`));
    expect(ours.green('✔')).toBe('\u001b[32m✔\u001b[39m');
  });

  it('writes no codes when off', () => {
    const off = ansiStyles(false);
    expect(off.enabled).toBe(false);
    for (const name of names) expect(off[name]('a\nb')).toBe('a\nb');
  });
});
