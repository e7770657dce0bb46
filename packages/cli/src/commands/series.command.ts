import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub series list|show|cancel`: recurring posts (`publish --repeat`). */
export function defineSeries(program: Program, kit: Kit): void {
  const series = examples(program.command('series').description('recurring posts made with `publish --repeat`'), [
    'socialpub series list',
    'socialpub series cancel ser_abc123',
    'socialpub schedule cancel job_abc123   # one occurrence only',
  ]);
  examples(
    series
      .command('list')
      .description('every series with its next occurrence')
      .action(async () => (await import('./series/series')).seriesList(kit.ctx())),
    ['socialpub series list', 'socialpub series list --json'],
  );
  examples(
    series
      .command('show')
      .description('one series with its next occurrences and their jobs')
      .argument('<series_id>', 'the series id (ser_…)')
      .action(async (seriesId) => (await import('./series/series')).seriesShow(kit.ctx(), { seriesId })),
    ['socialpub series show ser_abc123'],
  );
  examples(
    series
      .command('cancel')
      .description('cancel the whole series: no more posts, every scheduled occurrence cancelled')
      .argument('<series_id>', 'the series id')
      .action(async (seriesId) => (await import('./series/series')).seriesCancel(kit.ctx(), { seriesId })),
    ['socialpub series cancel ser_abc123'],
  );
}
