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
  examples(
    sandbox
      .command('serve')
      .description('run only the platform simulators in the foreground (no daemon), printing their origins; Ctrl-C stops them')
      .option('--port <port>', 'the port of /sandbox/<host>/... on 127.0.0.1 (default: any free one)')
      .action(async (o) => (await import('./sandbox/serve')).sandboxServe(kit.ctx(), o)),
    ['socialpub sandbox serve', 'socialpub sandbox serve --port 8790 --json'],
  );
  const faults = examples(
    sandbox.command('faults').description('latency and faults your sandbox connections meet: rehearse 429s, outages, timeouts and lost answers (docs/platforms/simulators.md)'),
    ['socialpub sandbox faults set twitter:429=0.5 latency=200-400', 'socialpub sandbox faults show', 'socialpub sandbox faults clear'],
  );
  examples(
    faults
      .command('set')
      .description('add faults: [platform:]kind=share with kinds 5xx, 429, timeout, reset, unanswered (share 0-1 or N%), or [platform:]latency=MIN-MAX ms')
      .argument('<fault...>', 'e.g. 5xx=0.1 twitter:429=50% threads:unanswered=1 latency=200-400')
      .option('--replace', 'replace your faults instead of adding to them')
      .action(async (list, o) => (await import('./sandbox/faults')).sandboxFaultsSet(kit.ctx(), { faults: list, replace: o.replace })),
    ['socialpub sandbox faults set twitter:unanswered=1', 'socialpub sandbox faults set latency=200-400 5xx=5% --replace'],
  );
  examples(
    faults
      .command('show')
      .description('your sandbox faults, and those the daemon sets for everyone')
      .action(async () => (await import('./sandbox/faults')).sandboxFaultsShow(kit.ctx())),
    ['socialpub sandbox faults show', 'socialpub sandbox faults show --json'],
  );
  examples(
    faults
      .command('clear')
      .description('clear your sandbox faults (all, or one platform\'s)')
      .option('--platform <platform>', 'only this platform (or all: the faults for every platform)')
      .action(async (o) => (await import('./sandbox/faults')).sandboxFaultsClear(kit.ctx(), o)),
    ['socialpub sandbox faults clear', 'socialpub sandbox faults clear --platform twitter'],
  );
}
