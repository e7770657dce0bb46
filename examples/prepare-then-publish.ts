/**
 * Prepares media from URLs (the daemon fetches, checks and re-hosts them), waits for the
 * task with progress, then publishes a tweet with the prepared files and follows it until
 * it is published.
 *
 *   SOCIALPUB_BASE_URL=http://127.0.0.1:8787 SOCIALPUB_API_KEY=sp_... \
 *     node --conditions=@socialpub/source --import tsx examples/prepare-then-publish.ts [url ...]
 */
import { pathToFileURL } from 'node:url';
import { SocialPub, type Platform, type Post, type SettledMediaStatus } from '@socialpub/sdk';

export interface PrepareThenPublishOptions {
  client?: SocialPub;
  /** Direct links, share links of a file-sharing or cloud-drive service, or public bucket URLs. */
  urls?: string[];
  platforms?: Platform[];
  caption?: string;
  log?: (line: string) => void;
}

export interface PrepareThenPublishResult {
  task: SettledMediaStatus;
  post: Post;
}

export async function prepareThenPublish({
  client = new SocialPub(),
  urls = ['https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png'],
  platforms = ['twitter'],
  caption = 'Prepared with socialpub',
  log = console.log,
}: PrepareThenPublishOptions = {}): Promise<PrepareThenPublishResult> {
  // Idempotency-Key is sent for you: a retried prepare never starts a second task.
  const { task_id } = await client.media.prepare({ urls });
  log(`task ${task_id}: preparing ${urls.length} file(s)`);

  const task = await client.media.waitUntilReady(task_id, {
    interval: 250,
    maxWait: 11 * 60_000, // the daemon gives a task 10 minutes
    onProgress: (s) => {
      if (s.status === 'processing') log(`  ${s.progress.completed}/${s.progress.total} done, ${s.progress.failed} failed`);
    },
  });
  for (const f of task.failed) log(`  could not prepare ${f.original_url}: ${f.error.code} (${f.error.message})`);
  if (task.status === 'failed' || task.files.length === 0) throw new Error(`no file could be prepared (task ${task_id})`);
  for (const f of task.files) log(`  ${f.type} ${f.size} bytes -> ${f.prepared_url} (until ${f.expires_at})`);

  const job = await client.content.publish({ caption, platforms, media_urls: task.files.map((f) => f.prepared_url), publish_now: true });
  const post = await client.scheduled.waitUntilDone(job.job_id, { interval: 250, maxWait: 120_000 });
  for (const t of post.targets) log(`${t.platform}: ${t.status}${t.post_url ? ` ${t.post_url}` : ''}`);
  return { task, post };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const urls = process.argv.slice(2);
  prepareThenPublish(urls.length > 0 ? { urls } : {}).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
