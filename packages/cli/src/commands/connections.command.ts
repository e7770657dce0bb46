import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub connections list|remove` (local admin). */
export function defineConnections(program: Program, kit: Kit): void {
  const connections = examples(program.command('connections').description('platform connections (local admin)'), [
    'socialpub connections list',
    'socialpub connections remove twitter',
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
      .description('remove the connection to a platform')
      .argument('<platform>', 'the platform')
      .option('--user <email>', 'the user (default: the only user)')
      .action(async (platform, o) => (await import('./connections/remove')).connectionsRemove(kit.ctx(), { ...o, platform })),
    ['socialpub connections remove twitter'],
  );
}
