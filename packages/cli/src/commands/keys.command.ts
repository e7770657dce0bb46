import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub keys create|list|revoke|rotate` (local admin on the data dir). */
export function defineKeys(program: Program, kit: Kit): void {
  const keys = examples(program.command('keys').description('API keys (local admin on the data dir)'), [
    'socialpub keys create --name laptop',
    'socialpub keys list',
    'socialpub keys rotate key_abc123 --save',
  ]);
  examples(
    keys
      .command('create')
      .description('create a key (and the user, if new); the full key is printed once')
      .option('--user <email>', 'the user the key belongs to (default: the only user, or owner@localhost)')
      .option('--name <name>', 'a label for the key')
      .option('--scope <scope>', 'what the key may do: full (everything), agent (writes posts, each held for approval), read (reads only)', 'full')
      .action(async (o) => (await import('./keys/create')).keysCreate(kit.ctx(), o)),
    ['socialpub keys create', 'socialpub keys create --scope agent --name claude', 'socialpub keys create --user ana@example.com --name laptop --json'],
  );
  examples(
    keys
      .command('list')
      .description('list keys (never the secrets)')
      .option('--user <email>', 'only this user')
      .action(async (o) => (await import('./keys/list')).keysList(kit.ctx(), o)),
    ['socialpub keys list', 'socialpub keys list --json'],
  );
  examples(
    keys
      .command('revoke')
      .description('revoke a key: it is refused from now on')
      .argument('<key_id>', 'the key id (key_…)')
      .action(async (keyId) => (await import('./keys/revoke')).keysRevoke(kit.ctx(), { keyId })),
    ['socialpub keys revoke key_abc123'],
  );
  examples(
    keys
      .command('rotate')
      .description('replace a key with a new one; the old one stops working at once')
      .argument('<key_id>', 'the key id (key_…)')
      .option('--save', 'also save the new key in the CLI config')
      .action(async (keyId, o) => (await import('./keys/rotate')).keysRotate(kit.ctx(), { keyId, save: o.save === true })),
    ['socialpub keys rotate key_abc123 --save'],
  );
}
