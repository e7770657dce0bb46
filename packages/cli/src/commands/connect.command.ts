import { Option } from '@commander-js/extra-typings';
import { platformDescriptions, platformsInWords } from '@socialpub/core';
import { examples, type Kit } from '../command-kit';
import { platformConnectFlags } from '../local/connect-flags';
import type { Program } from '../program';

/** `socialpub connect <platform>`: a sandbox, or the real platform through OAuth. Each platform's flags and examples come from its description (core). */
export function defineConnect(program: Program, kit: Kit): void {
  const command = program
    .command('connect')
    .description('connect a platform account: a sandbox (simulator) or the real platform through OAuth')
    .argument('<platform>', platformsInWords('or'))
    .option('--sandbox', "connect the platform's simulator served by the daemon")
    .option('--user <email>', 'the user the connection belongs to (default: the only user)')
    .option('--label <label>', 'another account of the platform, published to as -p <platform>:<label> (a-z, 0-9, - and _); the one of that label again reconnects it; default: the default account')
    .option('--client-id <id>', 'live: your app id / client id / client key (prompted when missing)')
    .option('--client-secret <secret>', 'live: your app secret / client secret (prompted when missing)')
    .option('--redirect-uri <uri>', 'live: the redirect URI registered in your app (default http://localhost:8765/callback or http://127.0.0.1:8765/callback)');
  for (const flag of platformConnectFlags()) command.addOption(new Option(flag.flags, flag.description));
  examples(
    command
      .option('--no-browser', 'print the authorization URL instead of opening a browser')
      .action(async (platform, o) => (await import('./connect')).connect(kit.ctx(), { ...o, platform, sandbox: o.sandbox === true, parsed: command.opts() })),
    platformDescriptions().flatMap((d) => d.connect.examples),
  );
}
