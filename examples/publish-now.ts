/**
 * Publishes one post to Twitter and Threads right now, then follows it until every target
 * has settled and prints where each one was published.
 *
 *   SOCIALPUB_BASE_URL=http://127.0.0.1:8787 SOCIALPUB_API_KEY=sp_... \
 *     node --conditions=@socialpub/source --import tsx examples/publish-now.ts
 */
import { pathToFileURL } from 'node:url';
import { SocialPub, type Platform, type Post } from '@socialpub/sdk';

export interface PublishNowOptions {
  client?: SocialPub;
  caption?: string;
  platforms?: Platform[];
  log?: (line: string) => void;
}

export async function publishNow({
  client = new SocialPub(),
  caption = `Hello from the socialpub SDK (${new Date().toISOString()})`,
  platforms = ['twitter', 'threads'],
  log = console.log,
}: PublishNowOptions = {}): Promise<Post> {
  // publish_now answers as soon as the job is stored; the platforms are reached in the background.
  const job = await client.content.publish({ caption, platforms, publish_now: true });
  log(`job ${job.job_id}: ${job.status} (${job.targets.map((t) => `${t.platform} ${t.type}`).join(', ')})`);

  const post = await client.scheduled.waitUntilDone(job.job_id, {
    interval: 250,
    maxWait: 120_000,
    onProgress: (p) => log(`  ${p.status}: ${p.targets.map((t) => `${t.platform}=${t.status}`).join(' ')}`),
  });
  for (const t of post.targets) {
    log(t.status === 'published' ? `${t.platform}: ${t.post_url}` : `${t.platform}: ${t.status}${t.error ? ` (${t.error.message})` : ''}`);
  }
  return post;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  publishNow().then(
    (post) => process.exit(post.status === 'published' ? 0 : 1),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
