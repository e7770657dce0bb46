import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub settings set` (local admin). */
export function defineSettings(program: Program, kit: Kit): void {
  const settings = program.command('settings').description("a user's settings (local admin)");
  examples(
    settings
      .command('set')
      .description('change a setting: approval-workflow on|off holds every new job for approval')
      .argument('<name>', 'approval-workflow')
      .argument('<value>', 'on or off')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (name, value, o) => (await import('./settings/set')).settingsSet(kit.ctx(), { ...o, name, value })),
    ['socialpub settings set approval-workflow on', 'socialpub settings set approval-workflow off --user ana@example.com'],
  );
}
