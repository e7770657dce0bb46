import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub sandbox posts`: what the simulators received; `socialpub sandbox endpoints`: where each is served. */
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
  examples(
    sandbox
      .command('endpoints')
      .description("each simulated host's own loopback origin, for pointing a platform's own client at the simulator")
      .action(async () => (await import('./sandbox/endpoints')).sandboxEndpoints(kit.ctx())),
    ['socialpub sandbox endpoints', 'socialpub sandbox endpoints --json'],
  );
}
