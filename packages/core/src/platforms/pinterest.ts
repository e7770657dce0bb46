import { definePlatform, mediaRule, VIDEO } from './description';

export const pinterest = definePlatform({
  id: 'pinterest',
  name: 'Pinterest',
  info: {
    // pin: 1 image, or 2-5 images as a carousel; video_pin: one video with a cover image. The caption is the pin's description (500; docs/reference/platforms.md §16).
    types: ['pin', 'video_pin'],
    defaultType: 'pin',
    caption: { max: 500, counting: 'characters' },
    media: { pin: mediaRule(1, 5, ['image']), video_pin: mediaRule(1, 1, VIDEO) },
    pullsMedia: false,
  },
  // Pinterest's recommended pin ratio is 2:3 (1000×1500), for image and video pins alike.
  frames: { pin: { ratio: '2:3', caption: true }, video_pin: { ratio: '2:3', caption: true } },
  optionWords: {
    board_id: { label: 'Board (its id)' },
    title: { label: 'Title' },
    link: { label: 'Destination link' },
    alt_text: { label: 'Alt text (describes the image for people who cannot see it)' },
    cover_image_url: { label: 'Video cover image URL' },
    cover_key_frame_sec: { label: 'Video cover frame (seconds into the video)' },
  },
  followUps: { thread: false, firstComment: false, commentIsPost: false, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [{ flags: '--board <id>', description: 'pinterest: the board pins go to (its id; the boards are listed, and asked for when several)', option: 'boardId' }],
    questions: { 'Pinterest app id': '--client-id (the Pinterest app id)', 'Pinterest app secret': '--client-secret (the Pinterest app secret key)', 'Which Pinterest board?': '--board (the board id; the boards are listed above)' },
    pageWord: 'board',
    examples: ['socialpub connect pinterest --client-id 1484362 --client-secret s3cr3t --board 549755885175'],
  },
  cli: {
    optionExamples: ['pinterest.board_id=549755885175', 'pinterest.title="…"', 'pinterest.link=https://…', 'pinterest.cover_key_frame_sec=3'],
    questions: [
      {
        option: 'cover_key_frame_sec',
        urlOption: 'cover_image_url',
        ask: 'Pinterest video pin cover (an image URL, or the second of the video to use, e.g. 3):',
        kind: 'seconds-or-url',
        types: ['video_pin'],
        default: '0',
        invalid: 'an http(s) image URL, or a whole number of seconds',
      },
    ],
  },
  mcp: {
    publishRule:
      "the caption is the pin's description; platform_options.pinterest.board_id picks one of the account's boards (list_platforms shows them), title/link/alt_text are optional, and a video_pin needs cover_image_url or cover_key_frame_sec.",
    connection: 'its boards',
  },
  docs: { page: 'docs/platforms/pinterest.md', summary: "Image, carousel and video pins on one of the account's boards, through Pinterest's REST API v5." },
});
