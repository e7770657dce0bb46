import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub settings [get [name]]`, `socialpub settings set <name> <value>` (local admin). */
export function defineSettings(program: Program, kit: Kit): void {
  const settings = examples(program.command('settings').description("a user's settings (local admin); without a subcommand, prints them"), [
    'socialpub settings',
    'socialpub settings set approval-workflow on',
  ]);
  examples(
    settings
      // The default: `socialpub settings` prints the settings.
      .command('get', { isDefault: true })
      .description('print the settings, or one setting\'s value (on or off)')
      .argument('[name]', 'approval-workflow, agent-approval or timezone')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (name, o) => (await import('./settings/get')).settingsGet(kit.ctx(), { ...o, name })),
    ['socialpub settings get', 'socialpub settings get approval-workflow', 'socialpub settings --json'],
  );
  examples(
    settings
      .command('set')
      .description('change a setting: approval-workflow on|off holds every new job for approval; agent-approval on|off holds jobs made through MCP; timezone <IANA zone|none> is the zone of your local times')
      .argument('<name>', 'approval-workflow, agent-approval or timezone')
      .argument('<value>', 'on or off; a zone like Europe/Berlin, or none')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (name, value, o) => (await import('./settings/set')).settingsSet(kit.ctx(), { ...o, name, value })),
    ['socialpub settings set approval-workflow on', 'socialpub settings set approval-workflow off --user ana@example.com', 'socialpub settings set timezone Europe/Berlin'],
  );
}
