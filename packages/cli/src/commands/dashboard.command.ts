import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub dashboard`: a one-time sign-in link to the web dashboard (local admin on the data dir). */
export function defineDashboard(program: Program, kit: Kit): void {
  examples(
    program
      .command('dashboard')
      .description('open the web dashboard in the browser, signed in by a one-time link (single use, 10 minutes)')
      .option('--user <email>', 'the user to sign in as (default: the only user, or owner@localhost)')
      .option('--no-open', 'print the link instead of opening the browser')
      .action(async (o) => (await import('./dashboard')).dashboard(kit.ctx(), { ...(o.user ? { user: o.user } : {}), open: o.open !== false })),
    ['socialpub dashboard', 'socialpub dashboard --no-open', 'socialpub dashboard --user ana@example.com --json'],
  );
}
