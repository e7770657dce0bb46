import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub sandbox posts`: what the simulators received. */
export function defineSandbox(program: Program, kit: Kit): void {
  const sandbox = examples(program.command('sandbox').description('what the platform simulators received'), ['socialpub sandbox posts --platform twitter']);
  examples(
    sandbox
      .command('posts')
      .description('list posts the simulators received (the dry-run view)')
      .option('--platform <platform>', 'only this platform')
      .action(async (o) => (await import('./sandbox/posts')).sandboxPosts(kit.ctx(), o)),
    ['socialpub sandbox posts', 'socialpub sandbox posts --platform twitter --json'],
  );
}
