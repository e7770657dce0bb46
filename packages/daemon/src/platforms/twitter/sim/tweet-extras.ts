/**
 * The X simulator's checks of the POST /2/tweets fields beyond text and media: `poll`,
 * `reply_settings` and `quote_tweet_id`, as X's spec (CreatePostsRequest, CreatePostsPoll)
 * and docs/reference/platforms.md §12.3.1 describe them.
 */

const REPLY_SETTINGS = new Set(['following', 'mentionedUsers', 'subscribers', 'verified']);
const POST_ID = /^[0-9]{1,19}$/;

export interface TweetExtras {
  poll: { options: string[]; durationMinutes: number } | null;
  replySettings: string | null;
  quoteTweetId: string | null;
}

/** A refusal: the HTTP status, X's problem detail and the offending parameter. */
export interface ExtrasProblem {
  status: 400;
  detail: string;
  parameter: string;
}

const bad = (parameter: string, detail: string): ExtrasProblem => ({ status: 400, detail, parameter });

/**
 * Reads and checks the fields; `postExists` answers whether a post id is one the caller can see
 * (a quote of an unknown or deleted post is refused), `hasMedia` whether the body attaches media.
 */
export function readTweetExtras(body: Record<string, unknown>, hasMedia: boolean, postExists: (id: string) => boolean): TweetExtras | ExtrasProblem {
  const out: TweetExtras = { poll: null, replySettings: null, quoteTweetId: null };

  if (body.reply_settings !== undefined) {
    if (typeof body.reply_settings !== 'string' || !REPLY_SETTINGS.has(body.reply_settings)) {
      return bad('reply_settings', `The \`reply_settings\` value [${String(body.reply_settings)}] is not one of [following, mentionedUsers, subscribers, verified]`);
    }
    out.replySettings = body.reply_settings;
  }

  if (body.poll !== undefined) {
    const poll = body.poll as Record<string, unknown> | null;
    if (!poll || typeof poll !== 'object' || Array.isArray(poll)) return bad('poll', 'poll must be an object with options and duration_minutes');
    const extra = Object.keys(poll).filter((k) => !['options', 'duration_minutes', 'reply_settings'].includes(k));
    if (extra.length) return bad('poll', `The following poll fields are not allowed: ${extra.join(', ')}`);
    const options = poll.options;
    if (!Array.isArray(options) || options.length < 2 || options.length > 4) return bad('poll.options', 'A poll has 2 to 4 options');
    for (const o of options) {
      if (typeof o !== 'string' || o.length === 0 || [...o].length > 25) return bad('poll.options', 'Each poll option is a string of 1 to 25 characters');
    }
    const minutes = poll.duration_minutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 5 || minutes > 10_080) {
      return bad('poll.duration_minutes', 'poll.duration_minutes must be an integer from 5 to 10080');
    }
    // poll.reply_settings is accepted for compatibility and dropped (CreatePostsPoll).
    out.poll = { options: options as string[], durationMinutes: minutes };
  }

  if (body.quote_tweet_id !== undefined) {
    const id = body.quote_tweet_id;
    if (typeof id !== 'string' || !POST_ID.test(id)) return bad('quote_tweet_id', `The \`quote_tweet_id\` value [${String(id)}] does not match ^[0-9]{1,19}$`);
    if (!postExists(id)) return bad('quote_tweet_id', `The quoted post [${id}] does not exist or is not visible to you.`);
    out.quoteTweetId = id;
  }

  // Older v2 docs: a poll stands alone, without media or a quote (docs/reference/platforms.md §12.3.1, §12.8).
  if (out.poll && hasMedia) return bad('poll', 'A post with a poll cannot also attach media.');
  if (out.poll && out.quoteTweetId) return bad('poll', 'A post with a poll cannot also quote a post.');
  return out;
}

export const isExtrasProblem = (v: TweetExtras | ExtrasProblem): v is ExtrasProblem => 'detail' in v;
