import { z } from 'zod';
import { graphId, httpUrl } from './meta-fields';

export const THREADS_REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'] as const;

export const ThreadsOptionsSchema = z
  .strictObject({
    reply_control: z
      .enum(THREADS_REPLY_CONTROLS)
      .optional()
      .meta({ description: 'reply_control: who may reply. parent_post_author_only: only the author of the post replied to. Default: everyone (Threads\' own default).' }),
    topic_tag: z
      .string()
      .min(1, { error: 'topic_tag must not be empty' })
      .refine((s) => [...s].length <= 50, { error: 'topic_tag is at most 50 characters' })
      .refine((s) => !/[.&]/.test(s), { error: 'topic_tag must not contain . or &' })
      .optional()
      .meta({ description: 'topic_tag: the post\'s one topic, 1-50 characters without . or &. Preferred by Threads over a #tag in the text.' }),
    link_attachment: httpUrl('link_attachment')
      .optional()
      .meta({ description: 'link_attachment: the URL previewed under a text post. Text posts (no media) only; counts toward the 5 links of a post. Default: Threads previews the first URL in the text.' }),
    quote_post_id: graphId('quote_post_id').optional().meta({ description: 'quote_post_id: the id of the Threads post this post quotes.' }),
  })
  .meta({ id: 'ThreadsOptions', description: 'Threads options (parameters of the post container, POST /{threads-user-id}/threads).' });
export type ThreadsOptions = z.infer<typeof ThreadsOptionsSchema>;
