import { z } from 'zod';

/** X's `reply_settings` inputs (CreatePostsRequest); `everyone` is X's default and is sent by leaving the field out (docs/reference/platforms.md §12.3.1). */
export const TWITTER_REPLY_SETTINGS = ['everyone', 'following', 'mentionedUsers', 'subscribers', 'verified'] as const;
export type TwitterReplySetting = (typeof TWITTER_REPLY_SETTINGS)[number];

/** X's poll limits (CreatePostsPoll): 2-4 options of 1-25 characters, 5 minutes to 7 days. */
export const TWITTER_POLL = { minOptions: 2, maxOptions: 4, optionMaxChars: 25, minMinutes: 5, maxMinutes: 10_080 } as const;

const chars = (s: string) => [...s].length;

export const TwitterPollSchema = z
  .strictObject({
    options: z
      .array(
        z
          .string()
          .trim()
          .min(1, { error: 'a poll option must not be empty' })
          .refine((s) => chars(s) <= TWITTER_POLL.optionMaxChars, { error: `a poll option is at most ${TWITTER_POLL.optionMaxChars} characters` }),
      )
      .min(TWITTER_POLL.minOptions, { error: `a poll has ${TWITTER_POLL.minOptions} to ${TWITTER_POLL.maxOptions} options` })
      .max(TWITTER_POLL.maxOptions, { error: `a poll has ${TWITTER_POLL.minOptions} to ${TWITTER_POLL.maxOptions} options` })
      .meta({ description: 'poll.options: 2 to 4 choices, each 1 to 25 characters.' }),
    duration_minutes: z
      .number()
      .int({ error: 'duration_minutes is a whole number of minutes' })
      .min(TWITTER_POLL.minMinutes, { error: 'a poll runs at least 5 minutes' })
      .max(TWITTER_POLL.maxMinutes, { error: 'a poll runs at most 7 days (10080 minutes)' })
      .meta({ description: 'poll.duration_minutes: 5 to 10080 (7 days).' }),
  })
  .meta({ description: 'An X poll (CreatePostsPoll). A post with a poll takes no media and no quote.' });

export const TwitterOptionsSchema = z
  .strictObject({
    reply_settings: z
      .enum(TWITTER_REPLY_SETTINGS)
      .optional()
      .meta({
        description:
          'reply_settings: who may reply (following, mentionedUsers, subscribers, verified). everyone is X\'s default and is sent by leaving the field out. Default: everyone.',
      }),
    poll: TwitterPollSchema.optional(),
    quote_tweet_id: z
      .string()
      .regex(/^[0-9]{1,19}$/, { error: 'quote_tweet_id is a post id (1 to 19 digits)' })
      .optional()
      .meta({ description: 'quote_tweet_id: the id of the post to quote; it must exist. X documents quote posts as Enterprise-only on its API.' }),
  })
  .check((ctx) => {
    if (ctx.value.poll && ctx.value.quote_tweet_id !== undefined) {
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['poll'], message: 'a post with a poll cannot quote another post (quote_tweet_id)' });
    }
  })
  .meta({ id: 'TwitterOptions', description: 'X post options (POST /2/tweets).' });
export type TwitterOptions = z.infer<typeof TwitterOptionsSchema>;
