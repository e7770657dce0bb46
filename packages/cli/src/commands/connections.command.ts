import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub connections list|remove|rename|default` (local admin). */
export function defineConnections(program: Program, kit: Kit): void {
  const connections = examples(program.command('connections').description('platform connections (local admin)'), [
    'socialpub connections list',
    'socialpub connections remove twitter',
    'socialpub connections rename twitter:default personal',
    'socialpub connections default twitter:brand',
  ]);
  examples(
    connections
      .command('list')
      .description('list connections with their mode, account and status')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (o) => (await import('./connections/list')).connectionsList(kit.ctx(), o)),
    ['socialpub connections list', 'socialpub connections list --json'],
  );
  examples(
    connections
      .command('remove')
      .description('remove a connection (the oldest other account of the platform becomes the default when it was)')
      .argument('<platform>', 'the platform (its default account), platform:label, or a connection id')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (platform, o) => (await import('./connections/remove')).connectionsRemove(kit.ctx(), { ...o, platform })),
    ['socialpub connections remove twitter', 'socialpub connections remove twitter:brand'],
  );
  examples(
    connections
      .command('rename')
      .description('give an account another label (unique among your accounts of the platform)')
      .argument('<account>', 'platform (its default account), platform:label, or a connection id')
      .argument('<label>', 'the new label: a-z, 0-9, - and _')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (account, label, o) => (await import('./connections/update')).connectionsUpdate(kit.ctx(), { ...o, account, label })),
    ['socialpub connections rename twitter:default personal'],
  );
  examples(
    connections
      .command('default')
      .description('make an account its platform\'s default: what a bare platform name in -p means')
      .argument('<account>', 'platform:label, or a connection id')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (account, o) => (await import('./connections/update')).connectionsUpdate(kit.ctx(), { ...o, account, makeDefault: true })),
    ['socialpub connections default twitter:brand'],
  );
}
