/**
 * Schedules a staggered campaign in one request: an Instagram story at the base time, the
 * Instagram feed post an hour later and the tweet two hours later (type_schedule offsets),
 * after checking it with content.validate, and prints when each target will go out.
 *
 *   SOCIALPUB_BASE_URL=http://127.0.0.1:8787 SOCIALPUB_API_KEY=sp_... \
 *     node --conditions=@socialpub/source --import tsx examples/staggered-campaign.ts
 */
import { pathToFileURL } from 'node:url';
import { SocialPub, type PublishParams, type PublishResult } from '@socialpub/sdk';

export interface CampaignOptions {
  client?: SocialPub;
  /** Base time of the campaign; default tomorrow at 10:00 UTC. */
  base?: string;
  /** A publicly reachable image (or a prepared_url from media.prepare). */
  imageUrl?: string;
  log?: (line: string) => void;
}

export function tomorrowAtTen(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 10, 0, 0));
  return d.toISOString();
}

export async function staggeredCampaign({
  client = new SocialPub(),
  base = tomorrowAtTen(),
  imageUrl = 'https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png',
  log = console.log,
}: CampaignOptions = {}): Promise<PublishResult> {
  const request: PublishParams = {
    caption: 'Our spring collection is here. #spring',
    platforms: ['instagram', 'twitter'],
    platform_types: { instagram: ['story', 'feed'] },
    platform_captions: { twitter: 'Spring collection out now, pictures on Instagram.' },
    media_urls: [imageUrl],
    scheduled_for: base,
    // Keys are content types, platforms or platform.type; the most specific one wins.
    type_schedule: { story: '+0h', 'instagram.feed': '+1h', twitter: '+2h' },
  };

  // Same checks as publishing, nothing stored: a cheap way to find mistakes first.
  const check = await client.content.validate(request);
  if (!check.valid) {
    for (const e of check.errors) log(`  ${e.path}: ${e.message}`);
    throw new Error('the campaign does not pass validation');
  }

  const job = await client.content.publish(request);
  log(`job ${job.job_id} ${job.status}, base ${job.scheduled_for}`);
  for (const t of job.targets) log(`  ${t.scheduled_for}  ${t.platform} ${t.type}`);
  return job;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  staggeredCampaign().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
