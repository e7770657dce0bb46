/**
 * The platforms' connect flows (in the daemon package) ask in their own words; without a
 * terminal the CLI cannot ask, and says which flag gives the answer instead.
 */
const FLAG_OF_QUESTION: Readonly<Record<string, string>> = {
  'Meta app id': '--client-id (the Meta app id)',
  'Threads app id': '--client-id (the Threads app id)',
  'App secret': '--client-secret (the app secret)',
  'TikTok client key': '--client-id (the TikTok client key)',
  'TikTok client secret': '--client-secret (the TikTok client secret)',
  'Google OAuth client id': '--client-id (the Google OAuth client id)',
  'OAuth 2.0 client id': '--client-id (the X OAuth 2.0 client id)',
  'Client secret': '--client-secret',
  'Client secret (empty for a public client)': '--client-secret (the X OAuth 2.0 client secret)',
  'API key (consumer key)': '--consumer-key (the X app API key)',
  'API key secret': '--consumer-secret (the X app API key secret)',
  'Access token': '--access-token',
  'Access token secret': '--access-secret',
  'Bluesky handle': '--handle (the Bluesky handle, e.g. alice.bsky.social)',
  'App password': '--app-password (a Bluesky app password)',
  'Which Facebook page?': '--page (the Facebook page id)',
  'Mastodon server (e.g. https://mastodon.social)': '--server (the Mastodon server, e.g. https://mastodon.social)',
  'LinkedIn client id': '--client-id (the LinkedIn app client id)',
  'LinkedIn client secret': '--client-secret (the LinkedIn app client secret)',
  'Post to LinkedIn as?': '--organization (an organization id you administer, or member)',
  'Pinterest app id': '--client-id (the Pinterest app id)',
  'Pinterest app secret': '--client-secret (the Pinterest app secret key)',
  'Which Pinterest board?': '--board (the board id; the boards are listed above)',
  'After authorizing, paste the full URL the browser was sent to': 'the URL the browser was sent to (pasted when asked: run this in a terminal)',
  'How should socialpub sign in to X?': '--client-id (OAuth 2.0 in the browser) or --consumer-key, --consumer-secret, --access-token and --access-secret (OAuth 1.0a)',
};

/** What a prompt's usage error says is missing: the flag that answers the question. */
export function missingFlag(question: string): string {
  return FLAG_OF_QUESTION[question] ?? `${question} (see --help for the flag)`;
}
