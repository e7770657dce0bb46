import { PLATFORM_INFO, PLATFORM_OPTION_SCHEMAS, platformDescription, type ContentType, type Platform, type PlatformOptions, type PublishQuestion } from '@socialpub/core';
import type { z } from 'zod';
import type { SocialPub } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { localFile } from './upload-file';

/**
 * The publish wizard's questions beyond platforms, caption, types and time (docs/cli.md
 * "In a terminal"): media when a chosen type needs it, and the questions each platform's
 * description asks about its options. Each is asked only in a terminal and only when no
 * flag supplied it.
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

/** The schema of one option field (its answers are checked with it), if the platform has options. */
function fieldSchema(platform: Platform, option: string): z.ZodType | undefined {
  return (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodObject | undefined>)[platform]?.shape[option] as z.ZodType | undefined;
}

const split = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The value at a dot path of an answer (`creator_info.privacy_level_options`). */
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);

/** The choices of a question the account narrows (TikTok's privacy levels from the creator's info); null: not asked. */
async function accountChoices(ctx: Ctx, client: SocialPub, q: PublishQuestion): Promise<PublishQuestion['choices'] | null> {
  const choices = q.choices ?? [];
  if (!q.choicesFromAccount) return choices;
  const { method, field, what } = q.choicesFromAccount;
  let allowed: unknown;
  try {
    const read = (client.platforms as unknown as Record<string, (() => Promise<unknown>) | undefined>)[method];
    if (!read) throw new Error(`the client has no platforms.${method}`);
    allowed = at(await read.call(client.platforms), field);
  } catch (err) {
    // Not connected, or the platform not answering: the summary's validation says what is wrong.
    ctx.log.warn(`could not read ${what} (${(err as Error).message}); the connection's own ${q.option.replace(/_/g, ' ')} setting applies`);
    return null;
  }
  const offered = choices.filter((c) => Array.isArray(allowed) && allowed.includes(c.value));
  return offered.length > 0 ? offered : null;
}

/** Asks one question; the options with its answer (unchanged when the answer leaves the option unset). */
async function ask(ctx: Ctx, client: SocialPub, platform: Platform, q: PublishQuestion, caption: string, given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hint = q.urlOption ? `--option ${platform}.${q.urlOption}=… or ${platform}.${q.option}=…` : `--option ${platform}.${q.option}=…`;
  const schema = fieldSchema(platform, q.option);
  const check = (value: unknown, fallback: string): true | string => {
    const r = schema?.safeParse(value);
    return !r || r.success ? true : (r.error.issues[0]?.message ?? fallback);
  };
  switch (q.kind) {
    case 'text': {
      const strip = q.captionDefault?.strip ? new RegExp(`[${q.captionDefault.strip.replace(/[\\\]^-]/g, '\\$&')}]`, 'g') : null;
      const line = caption.split('\n')[0] ?? '';
      const firstLine = q.captionDefault ? [...(strip ? line.replace(strip, '') : line).trim()].slice(0, q.captionDefault.max).join('') : '';
      const answer = await ctx.prompts.input(q.ask, hint, {
        ...(firstLine ? { default: firstLine } : {}),
        validate: (v) => (q.required && v.trim() === '' ? q.required : check(v, q.required ?? `not a valid ${q.option}`)),
      });
      return { ...given, [q.option]: answer.trim() };
    }
    case 'list': {
      const answer = await ctx.prompts.input(q.ask, hint, { validate: (v) => (!v.trim() ? true : check(split(v), `not a list of ${q.option}`)) });
      return answer.trim() ? { ...given, [q.option]: split(answer) } : given;
    }
    case 'choice': {
      const choices = await accountChoices(ctx, client, q);
      if (!choices) return given;
      const picked = await ctx.prompts.select<string>(q.ask, hint, choices.map((c) => ({ value: c.value, name: c.name })));
      if (picked === '') return given;
      return { ...given, [q.option]: q.asList ? [picked] : picked };
    }
    case 'seconds-or-url': {
      const answer = await ctx.prompts.input(q.ask, hint, {
        ...(q.default !== undefined ? { default: q.default } : {}),
        validate: (v) => {
          const t = v.trim();
          if (/^[0-9]+$/.test(t)) return true;
          const r = q.urlOption ? fieldSchema(platform, q.urlOption)?.safeParse(t) : undefined;
          return r?.success ? true : (q.invalid ?? 'a URL or a whole number of seconds');
        },
      });
      const t = answer.trim();
      return /^[0-9]+$/.test(t) ? { ...given, [q.option]: Number(t) } : { ...given, [q.urlOption ?? q.option]: t };
    }
  }
}

/**
 * Adds the answers to the questions of the chosen platforms' descriptions (cli.questions:
 * YouTube's title and privacy, TikTok's privacy level from the creator's current options,
 * Bluesky's languages and content warning, Mastodon's visibility, a LinkedIn document's
 * title, a Pinterest video pin's cover...) to the options the flags gave, platform by
 * platform in the order given. A question whose option a flag gave is not asked; one tied
 * to content types only when such a type is chosen.
 */
export async function askPlatformOptions(
  ctx: Ctx,
  client: SocialPub,
  platforms: readonly Platform[],
  caption: string,
  given: PlatformOptions,
  types: Partial<Record<Platform, ContentType[]>> = {},
): Promise<PlatformOptions> {
  const out: Record<string, Record<string, unknown>> = { ...(given as Record<string, Record<string, unknown>>) };
  for (const platform of platforms) {
    const chosen = types[platform] ?? [PLATFORM_INFO[platform].defaultType];
    let options: Record<string, unknown> = { ...out[platform] };
    for (const q of platformDescription(platform)?.cli.questions ?? []) {
      if (q.types && !chosen.some((t) => q.types!.includes(t))) continue;
      if (options[q.option] !== undefined || (q.urlOption && options[q.urlOption] !== undefined)) continue;
      options = await ask(ctx, client, platform, q, caption, options);
    }
    if (Object.keys(options).length > 0) out[platform] = options;
  }
  return out as PlatformOptions;
}
