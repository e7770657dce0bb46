import { examples, parseCount, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub queue show|set|next`: weekly posting slots; `publish --queue` takes the next free one. */
export function defineQueue(program: Program, kit: Kit): void {
  const queue = examples(program.command('queue').description('weekly posting slots; `publish --queue` takes the next free one'), [
    'socialpub queue set mon-fri@09:00,13:00 --tz Europe/Berlin',
    'socialpub queue next --count 5',
    'socialpub publish "From the queue" -p twitter --queue',
  ]);
  examples(
    queue
      .command('show')
      .description('the weekly slots, their zone and capacity')
      .action(async () => (await import('./queue/queue')).queueShow(kit.ctx())),
    ['socialpub queue show', 'socialpub queue show --json'],
  );
  examples(
    queue
      .command('set')
      .description('replace the slots: DAYS@TIMES[/PLATFORMS] each (none: clear them)')
      .argument('[slots...]', 'e.g. mon-fri@09:00,13:00 sat@10:00/twitter,threads')
      .option('--tz <zone>', 'IANA zone of the slot times (default: your timezone setting, else UTC)')
      .option('--capacity <n>', 'posts a slot holds (default 1)', parseCount)
      .action(async (slots, o) => (await import('./queue/queue')).queueSet(kit.ctx(), { ...o, slots })),
    ['socialpub queue set mon-fri@09:00,13:00 --tz America/New_York', 'socialpub queue set sat,sun@10:00/twitter --capacity 2', 'socialpub queue set   # clears the queue'],
  );
  examples(
    queue
      .command('next')
      .description('the next free slots')
      .option('--count <n>', 'how many (default 10, at most 100)', parseCount)
      .option('-p, --platforms <list>', 'only slots a post to these platforms may take')
      .action(async (o) => (await import('./queue/queue')).queueNext(kit.ctx(), o)),
    ['socialpub queue next', 'socialpub queue next --count 3 -p twitter --json'],
  );
}
