import type { TwitterOptions } from '@socialpub/core';

/** The POST /2/tweets fields platform_options.twitter adds (docs/reference/platforms.md §12.3.1; CreatePostsRequest). */
export interface TweetOptionFields {
  reply_settings?: 'following' | 'mentionedUsers' | 'subscribers' | 'verified';
  poll?: { options: string[]; duration_minutes: number };
  quote_tweet_id?: string;
}

/**
 * The request fields of the options, exactly as X's spec names them: `everyone` is X's
 * default and is not an accepted input, so it is left out; the rest pass unchanged.
 */
export function tweetOptionFields(options: Record<string, unknown>): TweetOptionFields {
  const o = options as TwitterOptions;
  const out: TweetOptionFields = {};
  if (o.reply_settings !== undefined && o.reply_settings !== 'everyone') out.reply_settings = o.reply_settings;
  if (o.poll) out.poll = { options: [...o.poll.options], duration_minutes: o.poll.duration_minutes };
  if (o.quote_tweet_id !== undefined) out.quote_tweet_id = o.quote_tweet_id;
  return out;
}
