import type { Kit } from './command-kit';
import type { Program } from './program';

type Define = (program: Program, kit: Kit) => void;

/** One top-level command: the names its definition adds to the program, and how to load it. */
export interface CommandEntry {
  names: readonly string[];
  load: () => Promise<Define>;
  /** It reads the whole command tree (completion scripts list every command). */
  needsAll?: boolean;
}

/**
 * Every command, in the order `socialpub --help` lists them. Each definition owns its
 * flags, help and examples (commands/<name>.command.ts) and `import()`s its action only
 * when it runs; the definitions themselves load only when the command line needs them
 * (`commandsFor`), so `schedule list` parses no other command's definition.
 * test/command-table.test.ts checks that `names` are what each definition adds.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { names: ['up'], load: async () => (await import('./commands/up.command')).defineUp },
  { names: ['down'], load: async () => (await import('./commands/daemon.command')).defineDown },
  { names: ['daemon'], load: async () => (await import('./commands/daemon.command')).defineDaemon },
  { names: ['service'], load: async () => (await import('./commands/service.command')).defineService },
  { names: ['dashboard'], load: async () => (await import('./commands/dashboard.command')).defineDashboard },
  { names: ['keys'], load: async () => (await import('./commands/keys.command')).defineKeys },
  { names: ['connect'], load: async () => (await import('./commands/connect.command')).defineConnect },
  { names: ['connections'], load: async () => (await import('./commands/connections.command')).defineConnections },
  { names: ['settings'], load: async () => (await import('./commands/settings.command')).defineSettings },
  { names: ['db'], load: async () => (await import('./commands/db.command')).defineDb },
  { names: ['sandbox'], load: async () => (await import('./commands/sandbox.command')).defineSandbox },
  { names: ['publish'], load: async () => (await import('./commands/publish.command')).definePublish },
  { names: ['schedule'], load: async () => (await import('./commands/schedule.command')).defineSchedule },
  { names: ['queue'], load: async () => (await import('./commands/queue.command')).defineQueue },
  { names: ['series'], load: async () => (await import('./commands/series.command')).defineSeries },
  { names: ['prepare'], load: async () => (await import('./commands/prepare.command')).definePrepare },
  { names: ['status'], load: async () => (await import('./commands/status.command')).defineStatus },
  { names: ['unpublish'], load: async () => (await import('./commands/unpublish.command')).defineUnpublish },
  { names: ['stats'], load: async () => (await import('./commands/stats.command')).defineStats },
  { names: ['auth'], load: async () => (await import('./commands/auth.command')).defineAuth },
  { names: ['whoami'], load: async () => (await import('./commands/auth.command')).defineWhoami },
  { names: ['platforms'], load: async () => (await import('./commands/platforms.command')).definePlatforms },
  { names: ['events'], load: async () => (await import('./commands/events.command')).defineEvents },
  { names: ['inbox'], load: async () => (await import('./commands/inbox.command')).defineInbox },
  { names: ['webhooks'], load: async () => (await import('./commands/webhooks.command')).defineWebhooks },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.command')).defineMcp },
  { names: ['config'], load: async () => (await import('./commands/config.command')).defineConfig },
  { names: ['completion'], load: async () => (await import('./commands/completion.command')).defineCompletion, needsAll: true },
];

/** The global flags that take a value as the next argument (program.ts). */
const GLOBAL_WITH_VALUE = new Set(['--base-url', '--api-key', '--data-dir']);

/**
 * The commands a command line needs: the one it names, or every command when it names
 * none (`socialpub`, `--help`, `help schedule`), a command that reads the whole tree, or
 * something unknown (commander's "did you mean" looks at every name).
 */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_WITH_VALUE.has(arg)) i++;
      continue;
    }
    const entry = COMMANDS.find((c) => c.names.includes(arg));
    return entry && !entry.needsAll ? [entry] : COMMANDS;
  }
  return COMMANDS;
}
