import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub platforms`: content types, limits and connections. */
export function definePlatforms(program: Program, kit: Kit): void {
  examples(
    program
      .command('platforms')
      .description('platforms, their content types and limits, and your connections')
      .action(async () => (await import('./platforms')).platforms(kit.ctx())),
    ['socialpub platforms', 'socialpub platforms --json'],
  );
}
