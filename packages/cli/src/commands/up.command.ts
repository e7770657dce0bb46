import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';
import { withListenOptions } from './daemon.command';

/** `socialpub up`: data dir, user, key and a running daemon in one step. */
export function defineUp(program: Program, kit: Kit): void {
  examples(
    withListenOptions(program.command('up').description('first run: create the data dir, a user and a key, start the daemon, save the key'))
      .option('--user <email>', 'email of the user the key belongs to (default: the only user, or owner@localhost)')
      .action(async (o) => (await import('./up')).up(kit.ctx(), o)),
    ['socialpub up', 'socialpub up --port 9000 --data-dir ./data'],
  );
}
