import { ACCOUNT_LABEL_PATTERN, ACCOUNT_LABEL_RULE, PLATFORMS, PLATFORM_INFO, THREAD_PLATFORMS, allowsType, parseAccountKey, type AccountKey, formatInstant, repeatToRrule, targetShown, type ContentType, type Platform, type Post, type PublishResult, type Target } from '@socialpub/core';
import type { PublishParams } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { CliError, EXIT, InterruptedError, UsageError } from '../errors';
import { parsePlatform, platformName } from '../platform-name';
import { parseAssignments, parseWhen, scheduleValue, wallTime } from '../time-input';
import { parseOptionFlags } from '../option-input';
import { renderTargets, shortTime, truncate } from '../ui/format';
import { replyFields, type ReplyFlags } from './reply-flags';
import { followJob } from './follow-job';
import { holdText } from '../ui/hold-text';
import { askMedia, askPlatformOptions, targetsNeedingMedia } from './publish-questions';
import { isLocalMedia, localFile, uploadFile } from './upload-file';
import { requireConnections } from './require-connections';

export interface PublishOptions extends ReplyFlags {
  caption?: string | undefined;
  /** Comma-separated platforms. */
  platforms?: string | undefined;
  /** `platform=text`, repeatable. */
  captionFor: string[];
  /** `platform=type1,type2`, repeatable. */
  type: string[];
  /** URLs or local files. */
  media: string[];
  now: boolean;
  at?: string | undefined;
  /** `key=+1h` or `key=<time>`, repeatable. */
  offset: string[];
  /** `platform.field=value`, repeatable: platform_options. */
  option: string[];
  requireApproval: boolean;
  wait: boolean;
  /** Skip the confirmation of the interactive summary. */
  yes: boolean;
  idempotencyKey?: string | undefined;
  /** IANA zone: --at and --offset times without an offset are wall times there. */
  tz?: string | undefined;
  /** Take the next free slot of the queue. */
  queue?: boolean | undefined;
  /** An RRULE or a friendly form (repeatToRrule); with count or until. */
  repeat?: string | undefined;
  count?: number | undefined;
  until?: string | undefined;
}

/**
 * `socialpub publish`: builds the request from flags; in a terminal, asks for whatever is
 * missing (platforms, caption, types, when, offsets) and confirms a summary. Local files
 * are prepared through the daemon first. --wait follows every target to its end.
 */
export async function publish(ctx: Ctx, o: PublishOptions): Promise<void> {
  if (o.now && o.at) throw new UsageError('give --now or --at, not both');
  if (o.now && o.offset.length) throw new UsageError('--offset needs --at (offsets count from the scheduled time)');
  const timing = timingFlags(o);
  const client = await ctx.client();
  const wizard = ctx.prompts.canAsk && (!o.platforms || o.caption === undefined || (!o.now && !o.at && !o.queue && !o.repeat));

  // Platforms: `accounts` as the request names them (`twitter`, `twitter:brand`), `platforms` their networks.
  let accounts: AccountKey[];
  let platforms: Platform[];
  if (o.platforms) {
    accounts = parseAccountList(o.platforms);
    platforms = [...new Set(accounts.map((a) => (parseAccountKey(a) as { platform: Platform }).platform))];
  } else {
    ctx.prompts.require('--platforms (-p instagram,twitter)');
    const { platforms: info } = await client.platforms.list();
    const connected = new Map(info.map((p) => [p.platform, p.connection]));
    platforms = await ctx.prompts.checkbox<Platform>(
      'Publish to which platforms?',
      '--platforms',
      PLATFORMS.map((p) => {
        const c = connected.get(p);
        return { value: p, name: c ? `${p} (connected: ${c.mode}${c.status === 'active' ? '' : `, ${c.status}`})` : `${p} (not connected)`, checked: false };
      }),
      { required: true },
    );
    accounts = platforms;
  }

  // Caption.
  let caption = o.caption;
  if (caption === undefined) {
    caption = (
      await ctx.prompts.editor('Caption (opens your editor):', 'caption (the first argument)', {
        validate: (v) => (v.trim() ? true : 'the caption must not be empty'),
      })
    ).trim();
  }
  if (!caption.trim()) throw new UsageError('the caption must not be empty');

  const platformCaptions = Object.fromEntries(
    parseAssignments(o.captionFor, '--caption-for', 'twitter="short text"').map(([p, text]) => [checkAccount(p, accounts, '--caption-for'), text]),
  );

  // Types.
  const platformTypes: NonNullable<PublishParams['platform_types']> = {};
  for (const [p, list] of parseAssignments(o.type, '--type', 'instagram=story,feed')) {
    const account = checkAccount(p, accounts, '--type');
    const platform = (parseAccountKey(account) as { platform: Platform }).platform;
    platformTypes[account] = list.split(',').map((t) => {
      const type = t.trim();
      if (!allowsType(platform, type)) throw new UsageError(`--type: ${platform} has no content type "${type}" (allowed: ${PLATFORM_INFO[platform].types.join(', ')})`);
      return type;
    });
  }
  if (wizard) {
    for (const p of platforms) {
      const info = PLATFORM_INFO[p];
      if (platformTypes[p] || info.types.length < 2) continue;
      platformTypes[p] = await ctx.prompts.checkbox<ContentType>(
        `Content types for ${p}?`,
        `--type ${p}=…`,
        info.types.map((t) => ({ value: t, name: t === info.defaultType ? `${t} (default)` : t, checked: t === info.defaultType })),
        { required: true },
      );
    }
  }

  // Media, asked now when a chosen type needs it (not found missing only after every question).
  const needing = wizard && o.media.length === 0 ? targetsNeedingMedia(platforms, platformTypes) : [];
  const media = needing.length > 0 ? await askMedia(ctx, needing) : o.media;

  // When.
  let publishNow = o.now;
  let scheduledFor = o.at ? (o.tz ? wallTime(o.at, '--at') : parseWhen(o.at, '--at')) : timing.start;
  if (!publishNow && !scheduledFor && !o.queue) {
    ctx.prompts.require('--now or --at <time>');
    const choice = await ctx.prompts.select<'now' | 'later'>('When?', '--now or --at', [
      { value: 'now', name: 'now' },
      { value: 'later', name: 'at a time…' },
    ]);
    if (choice === 'now') publishNow = true;
    else {
      const text = await ctx.prompts.input('Time (2026-12-25T10:00:00Z, "2026-12-25 10:00" local, or +2h):', '--at', {
        validate: (v) => {
          try {
            parseWhen(v, 'time');
            return true;
          } catch (err) {
            return (err as Error).message;
          }
        },
      });
      scheduledFor = parseWhen(text, '--at');
    }
  }

  // Offsets.
  const typeSchedule: Record<string, string> = Object.fromEntries(
    parseAssignments(o.offset, '--offset', 'feed=+1h').map(([k, v]) => [offsetKey(k), o.tz && !v.trim().startsWith('+') ? wallTime(v, '--offset') : scheduleValue(v, '--offset')]),
  );
  const targetKeys = platforms.flatMap((p) => (platformTypes[p] ?? [PLATFORM_INFO[p].defaultType]).map((t) => `${p}.${t}`));
  if (wizard && scheduledFor && targetKeys.length > 1 && o.offset.length === 0) {
    const stagger = await ctx.prompts.confirm('Stagger the targets with offsets from that time?', '--offset', { default: false });
    if (stagger) {
      for (const key of targetKeys) {
        const v = await ctx.prompts.input(`Offset for ${key} (+0h, +30m, +1h30m; empty: the base time):`, '--offset', {
          validate: (s) => {
            if (!s.trim()) return true;
            try {
              scheduleValue(s, 'offset');
              return true;
            } catch (err) {
              return (err as Error).message;
            }
          },
        });
        if (v.trim()) typeSchedule[key] = scheduleValue(v, '--offset');
      }
    }
  }

  const flagOptions = parseOptionFlags(o.option, platforms);
  const platformOptions = wizard ? await askPlatformOptions(ctx, client, platforms, caption, flagOptions, platformTypes) : flagOptions;

  // Media: local files go through the daemon's preparation first — not for a platform the
  // daemon would refuse anyway (no connection): that upload would be wasted.
  const items = [...media, ...o.threadMedia.flatMap((m) => m.split(',').map((x) => x.trim()))];
  const localFiles = items.some((m) => m !== '-' && m !== '' && isLocalMedia(m));
  if (localFiles) await requireConnections(client, platforms);
  const mediaUrls = await resolveMedia(ctx, media);
  const followUps = await replyFields(o, platforms, (items, flag) => resolveMedia(ctx, items, flag));

  const body: PublishParams = {
    caption,
    platforms: accounts,
    ...(Object.keys(platformCaptions).length ? { platform_captions: platformCaptions } : {}),
    ...(Object.keys(platformTypes).length ? { platform_types: platformTypes } : {}),
    ...(mediaUrls.length ? { media_urls: mediaUrls } : {}),
    ...(publishNow ? { publish_now: true } : o.queue ? { queue: true } : { scheduled_for: scheduledFor }),
    ...timing.body,
    ...(Object.keys(typeSchedule).length ? { type_schedule: typeSchedule } : {}),
    ...(o.requireApproval ? { require_approval: true } : {}),
    ...(Object.keys(platformOptions).length ? { platform_options: platformOptions } : {}),
    ...followUps,
  };

  if (wizard && !o.yes) {
    const check = await client.content.validate(body);
    ctx.log.info('');
    ctx.log.info(
      [
        `Caption:   ${truncate(caption, 60)}`,
        ...(mediaUrls.length ? [`Media:     ${mediaUrls.length} file(s)`] : []),
        ...(o.thread.length ? [`Thread:    ${o.thread.length} thread part(s) (${THREAD_PLATFORMS.join(', ')})`] : []),
        ...(followUps.first_comment ? [`Comment:   ${typeof followUps.first_comment === 'string' ? truncate(followUps.first_comment, 60) : Object.keys(followUps.first_comment).join(', ')}`] : []),
        `When:      ${publishNow ? 'now' : o.queue ? 'the next free queue slot' : o.tz ? `${(scheduledFor ?? '').replace('T', ' ')} ${o.tz}` : shortTime(scheduledFor)}`,
        ...(o.repeat ? [`Repeat:    ${o.repeat}`] : []),
        ...(Object.keys(platformOptions).length ? [`Options:   ${optionSummary(platformOptions)}`] : []),
        ...(o.requireApproval ? ['Approval:  required'] : []),
        'Targets:',
        ...check.targets.map((t) => `  ${targetShown(t)}  ${publishNow ? 'now' : shortTime(t.scheduled_for, o.tz)}`),
      ].join('\n'),
    );
    if (!check.valid) {
      throw new CliError('invalid_request', 'the daemon would refuse this publication', EXIT.usage, { details: check.errors });
    }
    if (!(await ctx.prompts.confirm(publishNow ? 'Publish now?' : 'Schedule it?', '--yes', { default: true }))) {
      throw new InterruptedError('nothing published');
    }
  }

  const result = await client.content.publish(body, o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : undefined);
  if (!o.wait) {
    const { success: _ok, ...data } = result;
    ctx.log.result(data, () => renderResult(ctx, result));
    return;
  }
  if (!ctx.log.json) ctx.log.info(renderResult(ctx, result).join('\n'));
  const post = await waitForJob(ctx, result);
  const unfinished = post.targets.filter((t) => t.status !== 'published');
  if (unfinished.length) {
    // Under --json the error document carries the job as `data`: still one document.
    throw new CliError('incomplete', `${unfinished.length} of ${post.targets.length} targets did not publish (${unfinished.map((t) => `${targetShown(t)}: ${t.status}`).join(', ')})`, EXIT.incomplete, {
      hint: `see \`socialpub schedule show ${post.job_id}\``,
      data: post,
    });
  }
  ctx.log.result(post, () => post.targets.filter((t) => t.post_url).map((t) => t.post_url as string));
}

function renderResult(ctx: Ctx, r: PublishResult): string[] {
  const verb = r.status === 'pending_approval' ? 'Held for approval' : r.status === 'scheduled' ? 'Scheduled' : 'Publishing';
  // Published now: the targets due at once are queued for the publisher, not "scheduled"
  // (a type_schedule offset may still put another one later, which stays scheduled).
  const first = Math.min(...r.targets.map((t) => Date.parse(t.scheduled_for)));
  const dueNow = (t: Target) => verb === 'Publishing' && t.status === 'scheduled' && Date.parse(t.scheduled_for) === first;
  const lines = [
    `${ctx.log.green('✔')} ${verb}: ${ctx.log.bold(r.job_id)}`,
    ...renderTargets(ctx.log, r.targets.map((t) => ({ ...t, attempts: 0, post_id: null, post_url: null, published_at: null, error: null })), r.timezone, { dueNow }),
    ...(r.queue_slot ? [ctx.log.dim(`queue slot: ${r.queue_slot}`)] : []),
    ...(r.series_id ? [ctx.log.dim(`series ${r.series_id}: see \`socialpub series show ${r.series_id}\``)] : []),
    ...(r.warnings ?? []).map((w) => ctx.log.yellow(`warning: ${w.message}`)),
  ];
  if (r.status === 'pending_approval') lines.push(ctx.log.dim(`approve it with: socialpub schedule approve ${r.job_id}`));
  return lines;
}

/** Follows the job until every target is settled, one spinner line with each target's state. */
async function waitForJob(ctx: Ctx, r: PublishResult): Promise<Post> {
  if (r.status === 'pending_approval') ctx.log.warn('the job waits for approval: --wait keeps waiting until it is approved or rejected');
  const spinner = (await ctx.spinner()).start(`waiting for ${r.targets.length} target(s)`);
  // A held target says what holds it and until when (holdText), not just `scheduled`.
  const describe = (post: Post) => post.targets.map((t) => `${targetShown(t)} ${holdText(t, post.timezone) ?? t.status}`).join(' · ');
  try {
    const post = await followJob(ctx, r.job_id, (p) => {
      spinner.text = describe(p);
    });
    spinner.stop();
    // The URLs are the result, on stdout; in a terminal stderr's lines would show them twice.
    const urlHere = !ctx.io.stdoutIsTTY || ctx.log.json;
    for (const t of post.targets) {
      const line = `${targetShown(t)}: ${t.status}${t.post_url ? (urlHere ? ` ${t.post_url}` : '') : t.error ? ` (${t.error.message})` : ''}`;
      const s = await ctx.spinner();
      if (t.status === 'published') s.succeed(line);
      else s.fail(line);
    }
    return post;
  } catch (err) {
    spinner.fail(`stopped waiting for ${r.job_id}`);
    throw err;
  }
}

/** `youtube.title="Launch day", tiktok.privacy_level=SELF_ONLY`: the options as --option flags would give them (text with spaces or commas quoted). */
function optionSummary(options: Record<string, Record<string, unknown> | undefined>): string {
  const shown = (v: unknown) => (typeof v === 'string' && /[\s,"]/.test(v) ? JSON.stringify(v) : String(v));
  return Object.entries(options)
    .flatMap(([p, fields]) => Object.entries(fields ?? {}).map(([k, v]) => `${p}.${k}=${shown(v)}`))
    .join(', ');
}

/** `twitter`, `X:brand`: a platform as people type it, with one of the user's account labels after a colon. */
function parseAccount(text: string, flag?: string): AccountKey {
  const colon = text.indexOf(':');
  const platform = parsePlatform(colon < 0 ? text : text.slice(0, colon), flag);
  if (colon < 0) return platform;
  const label = text.slice(colon + 1).trim();
  if (!ACCOUNT_LABEL_PATTERN.test(label)) throw new UsageError(`${flag ? `${flag}: ` : ''}${text}: ${ACCOUNT_LABEL_RULE}`);
  return `${platform}:${label}`;
}

function parseAccountList(text: string): AccountKey[] {
  const list = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (!list.length) throw new UsageError('--platforms names no platform');
  return [...new Set(list.map((p) => parseAccount(p, '--platforms')))];
}

function checkAccount(p: string, accounts: readonly AccountKey[], flag: string): AccountKey {
  const account = parseAccount(p, flag);
  if (!accounts.includes(account)) throw new UsageError(`${flag}: ${account} is not among the platforms (${accounts.join(', ')})`);
  return account;
}

/** An --offset key: `story`, or `platform.type` with the platform as people type it (`X.post`). */
function offsetKey(key: string): string {
  const dot = key.indexOf('.');
  const platform = dot > 0 ? platformName(key.slice(0, dot)) : null;
  return platform ? `${platform}.${key.slice(dot + 1)}` : key;
}

/** URLs pass through; local files are uploaded to the daemon (POST /media/upload) and replaced by their prepared URLs. */
async function resolveMedia(ctx: Ctx, media: readonly string[], flag = '--media'): Promise<string[]> {
  const out: string[] = [];
  for (const item of media) {
    const path = localFile(ctx, item, flag);
    if (path === null) {
      out.push(item);
      continue;
    }
    const task = await uploadFile(ctx, path);
    const file = task.files[0];
    if (!file) throw new CliError('media_refused', `${item} could not be uploaded`, EXIT.incomplete);
    out.push(file.prepared_url);
  }
  return out;
}

/** The --tz, --queue and --repeat flags as request fields; a series without --at starts now. */
function timingFlags(o: PublishOptions): { body: Partial<PublishParams>; start: string | undefined } {
  if (o.queue && (o.now || o.at)) throw new UsageError('--queue takes the next free slot: give no --now or --at with it');
  if (o.queue && o.repeat) throw new UsageError('--repeat starts at --at; it cannot take a queue slot');
  if (o.repeat && o.now) throw new UsageError('--repeat starts at --at, not --now');
  if ((o.count !== undefined || o.until !== undefined) && !o.repeat) throw new UsageError('--count and --until go with --repeat');
  const body: Partial<PublishParams> = {};
  if (o.tz) body.timezone = o.tz;
  if (o.repeat) {
    const rrule = repeatToRrule(o.repeat);
    if (rrule === null) {
      throw new UsageError(`--repeat "${o.repeat}" is not understood: give an RRULE (FREQ=WEEKLY;BYDAY=MO,TH) or daily|weekdays|weekly [on mon,thu]|monthly [on 15] [at HH:MM]`);
    }
    body.recurrence = {
      rrule,
      ...(o.count !== undefined ? { count: o.count } : {}),
      ...(o.until !== undefined ? { until: o.tz ? wallTime(o.until, '--until') : parseWhen(o.until, '--until') } : {}),
    };
  }
  // Without --at, a series starts a minute from now: its first occurrence is the rule's first match after that.
  return { body, start: o.repeat && !o.at ? formatInstant(Date.now() + 60_000) : undefined };
}
