import { simFigures } from '../../shared/sim/sim-figures';
/**
 * Mastodon's entities as the simulator answers them, with every field the API documents as
 * required (mastodon.openapi.json: Account, CredentialAccount, Status, MediaAttachment, Poll,
 * Instance), so clients that read them (masto) find what a real server sends.
 */

export interface SimAccount {
  id: string;
  username: string;
  /** Shown as display_name (the sandbox readers'); default 'Sandbox Mastodon'. */
  displayName?: string;
  createdAt: number;
}

export interface SimMedia {
  id: string;
  accountId: string;
  type: 'image' | 'video' | 'gifv' | 'audio';
  mimeType: string;
  size: number;
  description: string | null;
  focus: { x: number; y: number } | null;
  createdAt: number;
  /** When processing ends (images: at once). */
  readyAt: number;
  /** The status it is attached to, once it is. */
  statusId: string | null;
}

export interface SimPoll {
  id: string;
  options: string[];
  expiresAt: number;
  multiple: boolean;
  hideTotals: boolean;
}

export interface SimStatus {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: 'public' | 'unlisted' | 'private' | 'direct';
  language: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  mediaIds: string[];
  poll: SimPoll | null;
  createdAt: number;
  deletedAt: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The status text as Mastodon renders it: paragraphs, line breaks, links, hashtags and mentions. */
export function renderContent(text: string, origin: string): string {
  const inline = (line: string) =>
    escape(line)
      .replace(/\bhttps?:\/\/[^\s<>"]+/g, (url) => `<a href="${url}" target="_blank" rel="nofollow noopener">${url}</a>`)
      .replace(/(^|[^\w/])#([\p{L}\p{N}_]+)/gu, (_a, lead: string, tag: string) => `${lead}<a href="${origin}/tags/${tag.toLowerCase()}" class="mention hashtag" rel="tag">#<span>${tag}</span></a>`)
      .replace(/(^|[^\w/])@([A-Za-z0-9_]+)(?:@[A-Za-z0-9.-]+[A-Za-z0-9])?/g, (_a, lead: string, user: string) => `${lead}<span class="h-card"><a href="${origin}/@${user}" class="u-url mention">@<span>${user}</span></a></span>`);
  return text
    .split(/\n{2,}/)
    .filter((p) => p !== '')
    .map((p) => `<p>${p.split('\n').map(inline).join('<br />')}</p>`)
    .join('');
}

export function accountEntity(a: SimAccount, origin: string, statuses: number, lastStatusAt: number | null): Record<string, unknown> {
  return {
    id: a.id,
    username: a.username,
    acct: a.username,
    display_name: a.displayName ?? 'Sandbox Mastodon',
    locked: false,
    bot: false,
    discoverable: true,
    indexable: false,
    group: false,
    created_at: iso(a.createdAt).replace(/T.*$/, 'T00:00:00.000Z'),
    note: '<p>A simulated account of the socialpub sandbox.</p>',
    url: `${origin}/@${a.username}`,
    uri: `${origin}/users/${a.username}`,
    avatar: `${origin}/avatars/original/missing.png`,
    avatar_static: `${origin}/avatars/original/missing.png`,
    header: `${origin}/headers/original/missing.png`,
    header_static: `${origin}/headers/original/missing.png`,
    followers_count: 0,
    following_count: 0,
    statuses_count: statuses,
    last_status_at: lastStatusAt === null ? null : iso(lastStatusAt).slice(0, 10),
    hide_collections: false,
    noindex: false,
    emojis: [],
    roles: [],
    fields: [],
  };
}

export function credentialAccountEntity(a: SimAccount, origin: string, statuses: number, lastStatusAt: number | null): Record<string, unknown> {
  return {
    ...accountEntity(a, origin, statuses, lastStatusAt),
    source: { privacy: 'public', sensitive: false, language: '', note: 'A simulated account of the socialpub sandbox.', fields: [], follow_requests_count: 0, hide_collections: false, discoverable: true, indexable: false },
    role: { id: '-99', name: '', permissions: '0', color: '', highlighted: false },
  };
}

export function mediaEntity(m: SimMedia, origin: string, now: number): Record<string, unknown> {
  const ready = now >= m.readyAt;
  const ext = m.mimeType.split('/')[1] ?? 'bin';
  const path = `${origin}/system/media_attachments/files/${m.id}/original/file.${ext}`;
  return {
    id: m.id,
    type: m.type,
    url: ready ? path : null,
    preview_url: ready ? path.replace('/original/', '/small/') : null,
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: m.focus ? { focus: m.focus } : {},
    description: m.description,
    blurhash: ready ? 'UFBWY:8_0Jxv4mx]t8t64.%M-:IUWGWAt6M}' : null,
  };
}

export function pollEntity(p: SimPoll, now: number): Record<string, unknown> {
  return {
    id: p.id,
    expires_at: iso(p.expiresAt),
    expired: now >= p.expiresAt,
    multiple: p.multiple,
    votes_count: 0,
    voters_count: p.multiple ? 0 : null,
    voted: false,
    own_votes: [],
    options: p.options.map((title) => ({ title, votes_count: p.hideTotals && now < p.expiresAt ? null : 0 })),
    emojis: [],
  };
}

export function statusEntity(s: SimStatus, ctx: { origin: string; account: Record<string, unknown>; media: Record<string, unknown>[]; replies: number; now: number; withSource?: boolean }): Record<string, unknown> {
  const username = String(ctx.account.username);
  const tags = [...s.text.matchAll(/(?:^|[^\w/])#([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!.toLowerCase());
  const figures = simFigures(`mastodon:${s.id}`, ctx.now - s.createdAt);
  return {
    id: s.id,
    created_at: iso(s.createdAt),
    in_reply_to_id: s.inReplyToId,
    in_reply_to_account_id: s.inReplyToAccountId,
    sensitive: s.sensitive,
    spoiler_text: s.spoilerText,
    visibility: s.visibility,
    language: s.language,
    uri: `${ctx.origin}/users/${username}/statuses/${s.id}`,
    url: `${ctx.origin}/@${username}/${s.id}`,
    // The simulated audience's figures (deterministic from the status and its age) beside the replies made here.
    replies_count: ctx.replies + figures.replies,
    reblogs_count: figures.reposts,
    favourites_count: figures.likes,
    quotes_count: figures.quotes,
    edited_at: null,
    favourited: false,
    reblogged: false,
    muted: false,
    bookmarked: false,
    pinned: false,
    content: renderContent(s.text, ctx.origin),
    ...(ctx.withSource ? { text: s.text } : {}),
    reblog: null,
    application: { name: 'socialpub', website: null },
    account: ctx.account,
    media_attachments: ctx.media,
    mentions: [],
    tags: [...new Set(tags)].map((name) => ({ name, url: `${ctx.origin}/tags/${name}`, history: [] })),
    emojis: [],
    card: null,
    poll: s.poll ? pollEntity(s.poll, ctx.now) : null,
    filtered: [],
  };
}
