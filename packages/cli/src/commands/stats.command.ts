import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub stats <job_id>`: how a published job did, per target, from each network. */
export function defineStats(program: Program, kit: Kit): void {
  examples(
    program
      .command('stats')
      .description("how a published job did: its figures per target, read from each network (about 1 h, 24 h, 72 h, 7 d and 30 d after publishing)")
      .argument('<job_id>', 'the job id (job_…)')
      .option('--refresh', 'read the figures from the networks now (publishing first) instead of showing the last reading')
      .action(async (jobId, o) => (await import('./stats')).stats(kit.ctx(), { jobId, refresh: o.refresh === true })),
    ['socialpub stats job_abc123', 'socialpub stats job_abc123 --refresh', 'socialpub stats job_abc123 --json'],
  );
}
