import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub config get|set|unset|path`: the CLI's own config file. */
export function defineConfig(program: Program, kit: Kit): void {
  const config = examples(program.command('config').description('the CLI config file (base-url, api-key, data-dir)'), [
    'socialpub config get',
    'socialpub config set base-url http://127.0.0.1:9000',
    'socialpub config path',
  ]);
  examples(
    config
      .command('get')
      .description('print one setting, or all (the key is masked unless asked for by name)')
      .argument('[key]', 'base-url, api-key or data-dir')
      .action(async (key) => (await import('./config')).configGet(kit.ctx(), { key })),
    ['socialpub config get', 'socialpub config get base-url'],
  );
  examples(
    config
      .command('set')
      .description('save a setting')
      .argument('<key>', 'base-url, api-key or data-dir')
      .argument('<value>', 'the value')
      .action(async (key, value) => (await import('./config')).configSet(kit.ctx(), { key, value })),
    ['socialpub config set base-url http://127.0.0.1:9000'],
  );
  examples(
    config
      .command('unset')
      .description('forget a setting')
      .argument('<key>', 'base-url, api-key or data-dir')
      .action(async (key) => (await import('./config')).configUnset(kit.ctx(), { key })),
    ['socialpub config unset api-key'],
  );
  examples(
    config
      .command('path')
      .description('print where the config file is')
      .action(async () => (await import('./config')).configPath(kit.ctx())),
    ['socialpub config path'],
  );
}
