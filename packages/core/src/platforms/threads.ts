import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

export const threads = definePlatform({
  id: 'threads',
  name: 'Threads',
  info: {
    types: ['post'],
    defaultType: 'post',
    caption: { max: 500, counting: 'threads-utf8-emoji', maxLinks: 5 },
    media: { post: mediaRule(0, 20, IMAGE_OR_VIDEO, false) },
    pullsMedia: true,
  },
  optionWords: {
    reply_control: {
      label: 'Who can reply',
      choices: { everyone: 'Everyone', accounts_you_follow: 'Profiles you follow', mentioned_only: 'Only profiles you mention', parent_post_author_only: 'Only the author of the post replied to', followers_only: 'Your followers' },
    },
    topic_tag: { label: 'Topic' },
    link_attachment: { label: 'Link preview URL' },
    quote_post_id: { label: 'Quote post (its id)' },
  },
  followUps: { thread: true, firstComment: true, commentIsPost: true, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [],
    questions: { 'Threads app id': '--client-id (the Threads app id)', 'App secret': '--client-secret (the app secret)' },
    examples: [],
  },
  cli: { optionExamples: [] },
  mcp: {},
  docs: { page: 'docs/platforms/threads.md', summary: 'Text, image, video and carousel posts and reply chains through the Threads API; Threads pulls the media from public URLs.' },
});
