import { accountShown, targetShown, wallTimeOf, type ApprovalEntry, type Post, type Target } from '@socialpub/core';
import { holdText } from './hold-text';
import type { Column, Logger } from './logger';

/**
 * `2026-12-25T10:00:00.000Z` -> `2026-12-25 10:00 UTC`, compact for tables; with a zone,
 * the local time there (`2026-12-25 11:00 Europe/Berlin`). --json keeps the UTC instants.
 */
export function shortTime(iso: string | null | undefined, zone: string | null | undefined = 'UTC'): string {
  if (!iso) return '-';
  if (!zone || zone === 'UTC') return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const local = wallTimeOf(Date.parse(iso), zone);
  return `${local.slice(0, 10)} ${local.slice(11, 16)} ${zone}`;
}

/** Like shortTime, to the second (event lines): `2026-12-25 11:00:05 Europe/Berlin`. */
export function timeToSecond(iso: string, zone: string | null | undefined = 'UTC'): string {
  if (!zone || zone === 'UTC') return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  const local = wallTimeOf(Date.parse(iso), zone);
  return `${local.slice(0, 10)} ${local.slice(11, 19)} ${zone}`;
}

const ACTION_WORDS = { approved: 'Approved', rejected: 'Rejected', changes_requested: 'Changes requested' } as const;
export const REVIEW_SOURCE_WORDS = { dashboard: 'the dashboard', api: 'the API', cli: 'the CLI', mcp: 'MCP', review_link: 'a review link' } as const;

/** One decision of a post's approval history: "Approved by ana@example.com at 2026-12-25 09:00:00 UTC from the dashboard". */
export function decisionLine(a: ApprovalEntry, zone?: string | null): string {
  const who = a.by === null ? '' : ` by ${a.by}`;
  return `${ACTION_WORDS[a.action]}${who} at ${timeToSecond(a.at, zone)} from ${REVIEW_SOURCE_WORDS[a.source]} (version ${a.version})${a.comment ? `: ${a.comment}` : ''}`;
}

/** A job's targets in one cell: `twitter.tweet linkedin@work.post`. */
export function targetsShown(targets: readonly Target[]): string {
  return targets.map((t) => targetShown(t)).join(' ');
}

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** The lines of one job: its fields (per-platform captions under the default one), then a table of targets. */
export function renderPost(log: Logger, post: Post): string[] {
  const captions = Object.entries(post.platform_captions).map(([platform, text]) => [`caption (${platform})`, truncate(text, 72)] as const);
  // Continuation lines of a field start under its value: past the widest key, its colon and a space.
  const indent = ' '.repeat(Math.max('scheduled for'.length, ...captions.map(([k]) => k.length)) + 2);
  const lines = log.fields([
    ['job', log.bold(post.job_id)],
    ['status', log.status(post.status)],
    ['caption', truncate(post.caption, 72)],
    ...captions,
    ['platforms', post.platforms.join(', ')],
    ['scheduled for', post.scheduled_for ? shortTime(post.scheduled_for, post.timezone) : 'now'],
    ...(post.queue_slot ? [['queue slot', post.queue_slot] as const] : []),
    ...(post.series_id ? [['series', `${post.series_id} (occurrence ${post.occurrence ?? '?'})`] as const] : []),
    ...(Object.keys(post.type_schedule).length
      ? [['type schedule', Object.entries(post.type_schedule).map(([k, v]) => `${k}=${v}`).join(', ')] as const]
      : []),
    ...(post.media_urls.length ? [['media', post.media_urls.join(`\n${indent}`)] as const] : []),
    ['approval', post.require_approval ? 'required' : 'not required'],
    ...(post.approvals?.length ? [['decided', decisionLine(post.approvals[post.approvals.length - 1] as ApprovalEntry, post.timezone)] as const] : []),
    ...(post.comments?.length ? [['comments', `${post.comments.length} (socialpub schedule comments ${post.job_id})`] as const] : []),
    ['created', shortTime(post.created_at, post.timezone)],
  ]);
  const holds = post.targets.flatMap((t) => {
    const text = holdText(t, post.timezone);
    return text === null ? [] : [log.yellow(`${targetShown(t)}: ${text}`)];
  });
  return [...lines, '', ...renderTargets(log, post.targets, post.timezone), ...holds];
}

/**
 * Targets as a table, times in `zone` (the post's zone; default UTC). `dueNow` marks the
 * targets of a post published now that wait for the publisher: WHEN `now`, STATUS `queued`
 * (their stored status is `scheduled`, due at once).
 */
export function renderTargets(log: Logger, targets: readonly Target[], zone?: string | null, opts: { dueNow?: (t: Target) => boolean } = {}): string[] {
  const dueNow = opts.dueNow ?? (() => false);
  const columns: Column<Target>[] = [
    // The account after the network when it has a label of its own (twitter:brand).
    { header: 'PLATFORM', value: (t) => accountShown(t.platform, t.label) },
    { header: 'TYPE', value: (t) => t.type },
    { header: 'WHEN', value: (t) => (dueNow(t) ? 'now' : shortTime(t.scheduled_for, zone)) },
    { header: 'STATUS', value: (t) => (dueNow(t) ? 'queued' : t.status), style: (s) => log.status(s) },
    { header: 'RESULT', value: (t) => t.post_url ?? (t.error ? `${t.error.code}: ${truncate(t.error.message, 60)}` : '') },
  ];
  // Only posts with a thread or a first comment get the column, so other output stays as it was.
  if (targets.some((t) => t.thread_posts !== undefined || t.comment !== undefined)) columns.push({ header: 'REPLIES', value: repliesText });
  return log.table(targets, columns);
}

/** `thread 2 parts out, comment posted` / `comment failed: …`: what came of a target's thread and first comment. */
function repliesText(t: Target): string {
  const out: string[] = [];
  if (t.thread_posts !== undefined) out.push(`thread ${t.thread_posts.length} part${t.thread_posts.length === 1 ? '' : 's'} out`);
  if (t.comment !== undefined) out.push(t.comment === null ? 'comment pending' : 'error' in t.comment ? `comment failed: ${truncate(t.comment.error, 40)}` : 'comment posted');
  return out.join(', ');
}

/** `1536` -> `1.5 KB`: a file size for people. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
