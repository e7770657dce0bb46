import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub connect <platform>`: a sandbox, or the real platform through OAuth. */
export function defineConnect(program: Program, kit: Kit): void {
  examples(
    program
      .command('connect')
      .description('connect a platform account: a sandbox (simulator) or the real platform through OAuth')
      .argument('<platform>', 'instagram, facebook, twitter, threads, tiktok, youtube, bluesky, mastodon, linkedin or pinterest')
      .option('--sandbox', "connect the platform's simulator served by the daemon")
      .option('--user <email>', 'the user the connection belongs to (default: the only user)')
      .option('--client-id <id>', 'live: your app id / client id / client key (prompted when missing)')
      .option('--client-secret <secret>', 'live: your app secret / client secret (prompted when missing)')
      .option('--redirect-uri <uri>', 'live: the redirect URI registered in your app (default http://localhost:8765/callback or http://127.0.0.1:8765/callback)')
      .option('--page <id>', 'facebook (and instagram via facebook): the page to publish to (asked when several)')
      .option('--organization <id>', 'linkedin: post as this organization you administer (its id or urn:li:organization:<id>), or `member` to post as yourself (asked when you administer any)')
      .option('--board <id>', 'pinterest: the board pins go to (its id; the boards are listed, and asked for when several)')
      .option('--login <kind>', 'instagram: instagram (Instagram Login, default) or facebook (through a Facebook page)')
      .option('--consumer-key <key>', 'twitter OAuth 1.0a: the app API key')
      .option('--consumer-secret <secret>', 'twitter OAuth 1.0a: the app API key secret')
      .option('--access-token <token>', 'twitter OAuth 1.0a: your access token')
      .option('--access-secret <secret>', 'twitter OAuth 1.0a: your access token secret')
      .option('--handle <handle>', 'bluesky: the account handle, e.g. alice.bsky.social or a custom domain (prompted when missing)')
      .option('--app-password <password>', 'bluesky: an app password from Settings > Privacy and security > App passwords (prompted when missing)')
      .option('--server <url>', 'mastodon: the server the account lives on, e.g. https://mastodon.social (asked when missing)')
      .option('--no-browser', 'print the authorization URL instead of opening a browser')
      .action(async (platform, o) => (await import('./connect')).connect(kit.ctx(), { ...o, platform, sandbox: o.sandbox === true })),
    [
      'socialpub connect twitter --sandbox',
      'socialpub connect facebook --sandbox --user ana@example.com',
      'socialpub connect instagram --client-id 123456 --client-secret s3cr3t',
      'socialpub connect twitter --consumer-key K --consumer-secret S --access-token T --access-secret TS',
      'socialpub connect bluesky --handle alice.bsky.social --app-password xxxx-xxxx-xxxx-xxxx',
      'socialpub connect mastodon --server https://mastodon.social',
      'socialpub connect linkedin --client-id 86abc --client-secret s3cr3t --organization 2414183',
      'socialpub connect pinterest --client-id 1484362 --client-secret s3cr3t --board 549755885175',
    ],
  );
}
