import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub stats [job_id]`: how a published job did, per target; without a job, what worked across the posts of a window. */
export function defineStats(program: Program, kit: Kit): void {
  examples(
    program
      .command('stats')
      .description('how posts did, read from each network: one job per target (about 1 h, 24 h, 72 h, 7 d and 30 d after publishing), or without a job the totals, top posts and best times of a window')
      .argument('[job_id]', 'the job id (job_…); none: a summary of the posts published since --since')
      .option('--refresh', "with a job: read its figures from the networks now (publishing first) instead of showing the last reading")
      .option('--since <duration>', 'without a job: posts published in this last stretch (24h, 7d, 2w; default 30d)')
      .option('--platform <platform>', 'without a job: only this platform')
      .option('--csv', "CSV instead of the table: a job's every reading, or the summary's days")
      .action(async (jobId, o) =>
        (await import('./stats')).stats(kit.ctx(), { jobId: jobId ?? null, refresh: o.refresh === true, since: o.since ?? null, platform: o.platform ?? null, csv: o.csv === true }),
      ),
    ['socialpub stats job_abc123', 'socialpub stats job_abc123 --refresh', 'socialpub stats --since 7d --platform twitter', 'socialpub stats job_abc123 --json', 'socialpub stats job_abc123 --csv > figures.csv'],
  );
}
