import type { Ctx } from '../context';
import { ACCOUNT_LABEL_PATTERN, ACCOUNT_LABEL_RULE, PLATFORM_INFO, platformDescription, type Platform } from '@socialpub/core';
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
  /** --label: another account of the platform, named `platform:label` in -p; absent: the default account. */
  label?: string | undefined;
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
  if (o.label !== undefined && !ACCOUNT_LABEL_PATTERN.test(o.label)) throw new UsageError(`--label ${o.label}: ${ACCOUNT_LABEL_RULE}`);
  const dataDir = await ctx.dataDir();
  let connection: ConnectionListing & { connected?: ConnectionListing[] };
  if (o.sandbox) {
    connection = await withAdmin(dataDir, (admin) => admin.addSandboxConnection(platform, { ...(o.user ? { email: o.user } : {}), ...(o.label ? { label: o.label } : {}) }));
  } else {
    const flags = givenPlatformFlags(o.parsed ?? {});
    const problem = platformFlagProblems(flags)[0];
    if (problem) throw new UsageError(problem);
    const { connectLive } = await import('./connect-live');
    connection = await connectLive(ctx, { clientId: o.clientId, clientSecret: o.clientSecret, redirectUri: o.redirectUri, browser: o.browser, flags, dataDir, platform, email: o.user, label: o.label });
  }
  ctx.log.result(connection, () => [
    `${ctx.log.green('✔')} ${connection.label === 'default' ? platform : `${platform}:${connection.label}`} connected (${connection.mode}${connection.is_default && connection.label !== 'default' ? `, the default ${platform} account` : ''}) for ${connection.email}${connection.account_name ? `: ${connection.account_name}` : ''}${connection.page_name ? `, ${platformDescription(platform)?.connect.pageWord ?? 'page'} ${connection.page_name}` : ''}`,
    ...(connection.sandbox_password && platform === 'bluesky'
      ? [`sandbox password: ${connection.sandbox_password}`, ctx.log.dim(`yours only: signs into this simulated account with any AT Protocol client (createSession, identifier ${connection.account_id ?? 'its handle'})`)]
      : []),
    ...(connection.boards ? [`boards: ${connection.boards.map((b) => `${b.name} (${b.id})${b.id === connection.page_id ? ' *' : ''}`).join(', ')}`, ctx.log.dim('* pins go here; another board per post: --option pinterest.board_id=<id>')] : []),
    // Several pages (LinkedIn authors) chosen: each is an account of its own, named by its label.
    ...(connection.connected ?? []).slice(1).map((c) => `${ctx.log.green('✔')} ${platform}:${c.label} connected too${c.page_name ? `: ${platformDescription(platform)?.connect.pageWord ?? 'page'} ${c.page_name}` : ''}`),
    ctx.log.dim(`try: ${firstPublish(platform, connection.is_default ? null : connection.label)}`),
  ]);
}

/** A first publish that works on this platform as written: with media where text alone is refused. */
export function firstPublish(platform: Platform, label: string | null = null): string {
  const info = PLATFORM_INFO[platform];
  const rule = info.media[info.defaultType];
  const base = `socialpub publish "hello" -p ${label === null ? platform : `${platform}:${label}`}`;
  if (!rule || rule.min === 0) return `${base} --now --wait`;
  // A platform that pulls media needs a public URL; a local file is uploaded to the daemon.
  if (rule.kinds.includes('image')) return `${base} --media ${SAMPLE_IMAGE} --now --wait`;
  return `${base} --media ./clip.mp4 --now --wait   # ${platform} needs a video: name one of yours`;
}

/** A public JPEG (also the README tour's): Instagram takes JPEG images by URL. */
const SAMPLE_IMAGE = 'https://picsum.photos/id/10/1080/1350.jpg';
