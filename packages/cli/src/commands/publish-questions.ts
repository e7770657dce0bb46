import { BLUESKY_SELF_LABELS, BlueskyOptionsSchema, LinkedinOptionsSchema, PinterestOptionsSchema, PLATFORM_INFO, YoutubeOptionsSchema, type BlueskySelfLabel, type ContentType, type MastodonVisibility, type Platform, type PlatformOptions, type TiktokPrivacyLevel } from '@socialpub/core';
import type { SocialPub } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { localFile } from './upload-file';

/**
 * The publish wizard's questions beyond platforms, caption, types and time (docs/cli.md
 * "In a terminal"): media when a chosen type needs it, YouTube's title and privacy,
 * TikTok's privacy level from the creator's current options, Bluesky's languages and
 * content warning, Mastodon's visibility, a LinkedIn document's title, and a Pinterest
 * video pin's cover. Each is asked only in a
 * terminal and only when no flag supplied it.
 */

/** The chosen targets that cannot go without media, with what they take ("instagram.story (image or video)"). */
export function targetsNeedingMedia(platforms: readonly Platform[], types: Partial<Record<Platform, ContentType[]>>): string[] {
  return platforms.flatMap((p) =>
    (types[p] ?? [PLATFORM_INFO[p].defaultType]).flatMap((t) => {
      const rule = PLATFORM_INFO[p].media[t];
      if (!rule || rule.min === 0) return [];
      return [`${p}.${t} (${rule.kinds.includes('document') ? 'a PDF' : rule.kinds.includes('image') ? 'image or video' : 'a video'})`];
    }),
  );
}

/** Asks for media URLs or local files, one per answer, until an empty answer (at least one). */
export async function askMedia(ctx: Ctx, needing: readonly string[]): Promise<string[]> {
  ctx.log.info(`Media is needed for ${needing.join(', ')}.`);
  const media: string[] = [];
  for (;;) {
    const first = media.length === 0;
    const answer = await ctx.prompts.input(first ? 'Media (a URL or a local file):' : 'More media (empty: done):', '--media <url|file>', {
      validate: (v) => {
        if (!v.trim()) return first ? 'give at least one URL or file' : true;
        try {
          localFile(ctx, v.trim(), 'media');
          return true;
        } catch (err) {
          return (err as Error).message;
        }
      },
    });
    if (!answer.trim()) return media;
    media.push(answer.trim());
    if (media.length >= 10) return media;
  }
}

const PRIVACY_NAMES: Record<TiktokPrivacyLevel, string> = {
  PUBLIC_TO_EVERYONE: 'everyone (PUBLIC_TO_EVERYONE)',
  MUTUAL_FOLLOW_FRIENDS: 'friends (MUTUAL_FOLLOW_FRIENDS)',
  FOLLOWER_OF_CREATOR: 'followers (FOLLOWER_OF_CREATOR)',
  SELF_ONLY: 'only me (SELF_ONLY)',
};

/** YouTube's title (default: the caption's first line, as the daemon would take it) and privacy. */
async function askYoutube(ctx: Ctx, caption: string, given: NonNullable<PlatformOptions['youtube']>): Promise<NonNullable<PlatformOptions['youtube']>> {
  const out = { ...given };
  if (out.title === undefined) {
    const firstLine = [...(caption.split('\n')[0] ?? '').replace(/[<>]/g, '').trim()].slice(0, 100).join('');
    const title = await ctx.prompts.input('YouTube title (at most 100 characters, no < or >):', '--option youtube.title=…', {
      ...(firstLine ? { default: firstLine } : {}),
      validate: (v) => {
        const r = YoutubeOptionsSchema.shape.title.safeParse(v);
        return r.success ? true : (r.error.issues[0]?.message ?? 'not a YouTube title');
      },
    });
    out.title = title.trim();
  }
  if (out.privacy_status === undefined) {
    const privacy = await ctx.prompts.select<'default' | 'public' | 'unlisted' | 'private'>('YouTube privacy?', '--option youtube.privacy_status=…', [
      { value: 'default', name: "the connection's setting (else public)" },
      { value: 'public', name: 'public' },
      { value: 'unlisted', name: 'unlisted' },
      { value: 'private', name: 'private' },
    ]);
    if (privacy !== 'default') out.privacy_status = privacy;
  }
  return out;
}

/** TikTok's privacy level, offered from the creator's current options (GET /platforms/tiktok/creator-info). */
async function askTiktok(ctx: Ctx, client: SocialPub, given: NonNullable<PlatformOptions['tiktok']>): Promise<NonNullable<PlatformOptions['tiktok']>> {
  if (given.privacy_level !== undefined) return given;
  let options: TiktokPrivacyLevel[];
  try {
    options = (await client.platforms.tiktokCreatorInfo()).creator_info.privacy_level_options.filter((o): o is TiktokPrivacyLevel => o in PRIVACY_NAMES);
  } catch (err) {
    // Not connected, or TikTok not answering: the summary's validation says what is wrong.
    ctx.log.warn(`could not read TikTok's creator info (${(err as Error).message}); the connection's privacy setting applies`);
    return given;
  }
  if (options.length === 0) return given;
  const level = await ctx.prompts.select<TiktokPrivacyLevel>(
    'Who can see the TikTok video?',
    '--option tiktok.privacy_level=…',
    options.map((o) => ({ value: o, name: PRIVACY_NAMES[o] })),
  );
  return { ...given, privacy_level: level };
}

/** Bluesky's languages (empty: none) and content warning (a self-label, or none). */
async function askBluesky(ctx: Ctx, given: NonNullable<PlatformOptions['bluesky']>): Promise<NonNullable<PlatformOptions['bluesky']>> {
  const out = { ...given };
  if (out.langs === undefined) {
    const langs = await ctx.prompts.input('Bluesky languages (e.g. en,fr; empty: none):', '--option bluesky.langs=…', {
      validate: (v) => {
        if (!v.trim()) return true;
        const r = BlueskyOptionsSchema.shape.langs.safeParse(split(v));
        return r.success ? true : (r.error.issues[0]?.message ?? 'not a list of languages');
      },
    });
    if (langs.trim()) out.langs = split(langs);
  }
  if (out.labels === undefined) {
    const label = await ctx.prompts.select<BlueskySelfLabel | 'none'>('Bluesky content warning?', '--option bluesky.labels=…', [
      { value: 'none', name: 'none' },
      ...BLUESKY_SELF_LABELS.map((l) => ({ value: l, name: l })),
    ]);
    if (label !== 'none') out.labels = [label];
  }
  return out;
}

const split = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Mastodon's visibility (the account's own default unless one is chosen). */
async function askMastodon(ctx: Ctx, given: NonNullable<PlatformOptions['mastodon']>): Promise<NonNullable<PlatformOptions['mastodon']>> {
  if (given.visibility !== undefined) return given;
  const visibility = await ctx.prompts.select<'default' | MastodonVisibility>('Who sees the Mastodon status?', '--option mastodon.visibility=…', [
    { value: 'default', name: "the account's default visibility" },
    { value: 'public', name: 'public' },
    { value: 'unlisted', name: 'unlisted (public, kept out of public timelines)' },
    { value: 'private', name: 'private (followers only)' },
    { value: 'direct', name: 'direct (only the accounts mentioned)' },
  ]);
  return visibility === 'default' ? given : { ...given, visibility };
}

/** A LinkedIn document post's title (required there; default: the caption's first line). */
async function askLinkedinDocumentTitle(ctx: Ctx, caption: string, given: NonNullable<PlatformOptions['linkedin']>): Promise<NonNullable<PlatformOptions['linkedin']>> {
  if (given.document_title !== undefined) return given;
  const firstLine = [...(caption.split('\n')[0] ?? '').trim()].slice(0, 400).join('');
  const title = await ctx.prompts.input('LinkedIn document title:', '--option linkedin.document_title=…', {
    ...(firstLine ? { default: firstLine } : {}),
    validate: (v) => {
      const r = LinkedinOptionsSchema.shape.document_title.safeParse(v);
      return r.success && v.trim() !== '' ? true : (r.error?.issues[0]?.message ?? 'a document post needs a title');
    },
  });
  return { ...given, document_title: title.trim() };
}

/** A Pinterest video pin's cover (required there): an image URL, or a second of the video whose frame becomes the cover. */
async function askPinterestCover(ctx: Ctx, given: NonNullable<PlatformOptions['pinterest']>): Promise<NonNullable<PlatformOptions['pinterest']>> {
  if (given.cover_image_url !== undefined || given.cover_key_frame_sec !== undefined) return given;
  const answer = await ctx.prompts.input('Pinterest video pin cover (an image URL, or the second of the video to use, e.g. 3):', '--option pinterest.cover_image_url=… or pinterest.cover_key_frame_sec=…', {
    default: '0',
    validate: (v) => {
      const t = v.trim();
      if (/^[0-9]+$/.test(t)) return true;
      const r = PinterestOptionsSchema.shape.cover_image_url.safeParse(t);
      return r.success ? true : 'an http(s) image URL, or a whole number of seconds';
    },
  });
  const t = answer.trim();
  return /^[0-9]+$/.test(t) ? { ...given, cover_key_frame_sec: Number(t) } : { ...given, cover_image_url: t };
}

/** Adds the YouTube, TikTok, Bluesky, Mastodon, LinkedIn and Pinterest answers to the options the flags gave. */
export async function askPlatformOptions(
  ctx: Ctx,
  client: SocialPub,
  platforms: readonly Platform[],
  caption: string,
  given: PlatformOptions,
  types: Partial<Record<Platform, ContentType[]>> = {},
): Promise<PlatformOptions> {
  const out: PlatformOptions = { ...given };
  if (platforms.includes('linkedin') && (types.linkedin ?? []).includes('document')) out.linkedin = await askLinkedinDocumentTitle(ctx, caption, given.linkedin ?? {});
  if (platforms.includes('pinterest') && (types.pinterest ?? []).includes('video_pin')) out.pinterest = await askPinterestCover(ctx, given.pinterest ?? {});
  if (platforms.includes('youtube')) out.youtube = await askYoutube(ctx, caption, given.youtube ?? {});
  if (platforms.includes('tiktok')) {
    const tiktok = await askTiktok(ctx, client, given.tiktok ?? {});
    if (Object.keys(tiktok).length > 0) out.tiktok = tiktok;
  }
  if (platforms.includes('bluesky')) {
    const bluesky = await askBluesky(ctx, given.bluesky ?? {});
    if (Object.keys(bluesky).length > 0) out.bluesky = bluesky;
  }
  if (platforms.includes('mastodon')) {
    const mastodon = await askMastodon(ctx, given.mastodon ?? {});
    if (Object.keys(mastodon).length > 0) out.mastodon = mastodon;
  }
  return out;
}
