import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub prepare <url|file...>`: media prepared by the daemon before publishing. */
export function definePrepare(program: Program, kit: Kit): void {
  examples(
    program
      .command('prepare')
      .description('prepare media for publishing: links (Dropbox, Google Drive, OneDrive, buckets, direct) are fetched by the daemon, local files uploaded to it')
      .argument('<url|file...>', '1 to 10 links, and/or local files')
      .option('--wait', 'wait until every file is prepared or refused')
      .action(async (urls, o) => (await import('./prepare')).prepare(kit.ctx(), { urls, wait: o.wait === true })),
    ['socialpub prepare https://www.dropbox.com/s/abc/photo.jpg?dl=0 --wait', 'socialpub prepare s3://bucket/clip.mp4 --json', 'socialpub prepare ./clip.mp4 ./cover.jpg --json'],
  );
}
