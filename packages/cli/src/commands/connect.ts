import type { Ctx } from '../context';
import { PLATFORM_INFO, platformDescription, type Platform } from '@socialpub/core';
import { UsageError } from '../errors';
import type { ConnectionListing } from '@socialpub/daemon';
import { withAdmin } from '../local/admin';
import { givenPlatformFlags, platformFlagProblems } from '../local/connect-flags';
import { parsePlatform } from '../platform-name';
import type { LiveCredentials } from './connect-live';

export interface ConnectOptions extends Omit<LiveCredentials, 'flags'> {
  platform: string;
  sandbox: boolean;
  user?: string | undefined;
  /** Everything commander parsed, the platforms' own flags among it (their descriptions name them). */
  parsed?: Record<string, unknown>;
}

/**
 * `socialpub connect <platform>`: --sandbox records a connection to the daemon's
 * simulator at once; otherwise runs the platform's OAuth flow in the browser with the
 * user's own app credentials (flags, else prompted by the platform's flow; the platform's
 * own flags come from its description) and stores the tokens encrypted in the data dir.
 */
export async function connect(ctx: Ctx, o: ConnectOptions): Promise<void> {
  const platform = parsePlatform(o.platform);
  const dataDir = await ctx.dataDir();
  let connection: ConnectionListing;
  if (o.sandbox) {
    connection = await withAdmin(dataDir, (admin) => admin.addSandboxConnection(platform, o.user ? { email: o.user } : {}));
  } else {
    const flags = givenPlatformFlags(o.parsed ?? {});
    const problem = platformFlagProblems(flags)[0];
    if (problem) throw new UsageError(problem);
    const { connectLive } = await import('./connect-live');
    connection = await connectLive(ctx, { clientId: o.clientId, clientSecret: o.clientSecret, redirectUri: o.redirectUri, browser: o.browser, flags, dataDir, platform, email: o.user });
  }
  ctx.log.result(connection, () => [
    `${ctx.log.green('✔')} ${platform} connected (${connection.mode}) for ${connection.email}${connection.account_name ? `: ${connection.account_name}` : ''}${connection.page_name ? `, ${platformDescription(platform)?.connect.pageWord ?? 'page'} ${connection.page_name}` : ''}`,
    ...(connection.sandbox_password && platform === 'bluesky'
      ? [`sandbox password: ${connection.sandbox_password}`, ctx.log.dim(`yours only: signs into this simulated account with any AT Protocol client (createSession, identifier ${connection.account_id ?? 'its handle'})`)]
      : []),
    ...(connection.boards ? [`boards: ${connection.boards.map((b) => `${b.name} (${b.id})${b.id === connection.page_id ? ' *' : ''}`).join(', ')}`, ctx.log.dim('* pins go here; another board per post: --option pinterest.board_id=<id>')] : []),
    ctx.log.dim(`try: ${firstPublish(platform)}`),
  ]);
}

/** A first publish that works on this platform as written: with media where text alone is refused. */
export function firstPublish(platform: Platform): string {
  const info = PLATFORM_INFO[platform];
  const rule = info.media[info.defaultType];
  const base = `socialpub publish "hello" -p ${platform}`;
  if (!rule || rule.min === 0) return `${base} --now --wait`;
  // A platform that pulls media needs a public URL; a local file is uploaded to the daemon.
  if (rule.kinds.includes('image')) return `${base} --media ${SAMPLE_IMAGE} --now --wait`;
  return `${base} --media ./clip.mp4 --now --wait   # ${platform} needs a video: name one of yours`;
}

/** A public JPEG (also the README tour's): Instagram takes JPEG images by URL. */
const SAMPLE_IMAGE = 'https://picsum.photos/id/10/1080/1350.jpg';
