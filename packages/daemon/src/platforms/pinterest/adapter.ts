import type { Got } from 'got';
import type { PinterestOptions } from '@socialpub/core';
import type { AccountCheckInput, AccountCheckResult, MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { OutcomeUnknownError, PermanentError, PublishError } from '../errors';
import { readMediaChunk } from '../shared/read-media-chunk';
import { listBoards } from './boards';
import { pinterestSession, pinUrl, type PinterestSession } from './pinterest-session';
import { uploadVideo, type VideoDeps } from './video-upload';
import { validatePinterest } from './validate';

export interface PinterestAdapterDeps extends VideoDeps {
  http?: Got;
  requestTimeoutMs?: number;
  /** Reconcile waits until this long after the pin request before concluding "not posted" (the board's list may lag). Default 10 s. */
  reconcileSettleMs?: number;
}

/** What identifies the pin sent: reconcile looks for it among the board's pins. */
interface PinFingerprint {
  title: string | null;
  description: string;
  link: string | null;
}

/**
 * The fingerprint as the checkpoint keeps it: a field the pin went without is left out, not
 * null, because the checkpoint is merged with json_patch (RFC 7396), which drops null members.
 */
type SavedFingerprint = { [K in keyof PinFingerprint]?: PinFingerprint[K] };

const toSaved = (f: PinFingerprint): SavedFingerprint => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null));
const fromSaved = (f: SavedFingerprint): PinFingerprint => ({ title: f.title ?? null, description: f.description ?? '', link: f.link ?? null });

interface PinterestCheckpoint {
  /** The board, fixed on the first attempt (reconcile lists this board's pins). */
  boardId?: string;
  sent?: SavedFingerprint;
  /** Set just before POST /v5/pins: from here on a pin may exist. */
  pinRequestedAt?: number;
  pinId?: string;
}

interface PinElement {
  id?: string;
  created_at?: string;
  title?: string | null;
  description?: string | null;
  link?: string | null;
  board_id?: string;
}

/** Pinterest writes times in UTC without a zone (`2026-11-26T10:00:00`); JavaScript would read those as local time. */
export function pinterestTime(value: string | undefined): number {
  if (!value) return Number.NaN;
  return Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
}

const squash = (s: string | null | undefined) => (s ?? '').normalize('NFC').replace(/\s+/g, ' ').trim();
/** Pages of the board read when looking for a pin (newest first, 100 each). */
const FIND_PAGES = 3;

/**
 * Pinterest's REST API v5: a pin (`POST /v5/pins`) from one image or a carousel of 2-5,
 * sent as bytes (image_base64) or, when the daemon has a public base URL, by URL for
 * Pinterest to fetch; a video pin from `POST /v5/media`, the upload and its processing.
 * Pinterest takes no idempotency key, so an unanswered pin request is settled by listing
 * the board's pins for the title, description and link sent.
 */
export function createPinterestAdapter(deps: PinterestAdapterDeps = {}): PlatformAdapter {
  const settleMs = deps.reconcileSettleMs ?? 10_000;
  const session = (ctx: Parameters<typeof pinterestSession>[0]) => pinterestSession(ctx, deps);

  /** The board: the post's board_id, else the connection's board, else the account's first board. */
  async function boardOf(ctx: PublishContext, s: PinterestSession): Promise<string> {
    const cp = ctx.checkpoint.data as PinterestCheckpoint;
    if (cp.boardId) return cp.boardId;
    let board = (ctx.target.options as PinterestOptions).board_id ?? ctx.credentials.pageId ?? null;
    if (!board) {
      const boards = await s.call('board list', false, (c) => listBoards(c));
      if (!boards[0]) throw new PermanentError('The Pinterest account has no board to pin to; create one on Pinterest and publish again', { platformCode: 'no_board' });
      board = boards[0].id;
    }
    await ctx.checkpoint.save({ boardId: board });
    return board;
  }

  function fingerprint(ctx: PublishContext): PinFingerprint {
    const o = ctx.target.options as PinterestOptions;
    return { title: o.title ?? null, description: ctx.target.caption, link: o.link ?? null };
  }

  /** The pin on `board` made since `since` with this title, description and link, among the board's newest (GET /v5/boards/{id}/pins). */
  async function findPin(s: PinterestSession, board: string, sent: PinFingerprint, since: number): Promise<string | null> {
    let bookmark: string | null = null;
    for (let page = 0; page < FIND_PAGES; page++) {
      const res: { body: { items?: PinElement[]; bookmark?: string | null } } = await s.call('looking for the pin', false, (c) =>
        c.request(`/v5/boards/${encodeURIComponent(board)}/pins`, { method: 'GET', query: { page_size: '100', ...(bookmark ? { bookmark } : {}) } }),
      );
      const items = res.body.items ?? [];
      const hit = items.find(
        (p) =>
          p.id &&
          pinterestTime(p.created_at) >= since - 5_000 &&
          squash(p.description) === squash(sent.description) &&
          squash(p.title) === squash(sent.title) &&
          (p.link ?? null) === (sent.link ?? null),
      );
      if (hit?.id) return hit.id;
      // Newest first: once a page reaches pins older than the window, the pin is not further down.
      if (items.some((p) => pinterestTime(p.created_at) < since - 5_000)) return null;
      bookmark = res.body.bookmark ?? null;
      if (!bookmark) return null;
    }
    return null;
  }

  async function lookAfterUnknown(ctx: PublishContext, s: PinterestSession, board: string, sent: PinFingerprint, requestedAt: number): Promise<string | null> {
    const since = Math.min(requestedAt, ctx.target.attemptStartedAt);
    try {
      const found = await findPin(s, board, sent, since);
      if (found) return found;
      const settleAt = requestedAt + settleMs;
      if (ctx.clock.now() < settleAt) await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
      return await findPin(s, board, sent, since);
    } catch {
      return null;
    }
  }

  async function imageSource(ctx: PublishContext, items: MediaItem[]): Promise<Record<string, unknown>> {
    // By URL when Pinterest can fetch the prepared file (a public base URL), else the bytes.
    const byUrl = ctx.publicBaseUrl !== null && items.every((m) => m.publicUrl);
    const base64 = async (m: MediaItem) => {
      const type = m.mimeType.toLowerCase();
      if (type !== 'image/jpeg' && type !== 'image/png') throw new PermanentError(`Pinterest takes JPEG or PNG image bytes, not ${m.mimeType}`, { platformCode: 'media_type' });
      return { content_type: type, data: (await readMediaChunk(m, 0, m.size)).toString('base64') };
    };
    if (items.length === 1) {
      const m = items[0]!;
      return byUrl ? { source_type: 'image_url', url: m.publicUrl } : { source_type: 'image_base64', ...(await base64(m)) };
    }
    if (byUrl) return { source_type: 'multiple_image_urls', items: items.map((m) => ({ url: m.publicUrl })) };
    const out = [];
    for (const m of items) out.push(await base64(m));
    return { source_type: 'multiple_image_base64', items: out };
  }

  async function mediaSource(ctx: PublishContext, s: PinterestSession): Promise<Record<string, unknown>> {
    if (ctx.target.type !== 'video_pin') return imageSource(ctx, ctx.media);
    const o = ctx.target.options as PinterestOptions;
    const mediaId = await uploadVideo(ctx, s, ctx.media[0]!, deps);
    return {
      source_type: 'video_id',
      media_id: mediaId,
      ...(o.cover_image_url !== undefined ? { cover_image_url: o.cover_image_url } : { cover_image_key_frame_time: o.cover_key_frame_sec ?? 0 }),
    };
  }

  const outcome = (id: string): PublishOutcome => ({ postId: id, postUrl: pinUrl(id) });

  return {
    platform: 'pinterest',
    validate: validatePinterest,

    /** A board_id option must be one of the account's boards. */
    async checkAccount(input: AccountCheckInput): Promise<AccountCheckResult> {
      const o = input.options as PinterestOptions;
      if (!o.board_id) return { issues: [] };
      let boards;
      try {
        boards = await (await session(input.account)).call('board list', false, (c) => listBoards(c));
      } catch (err) {
        return { unavailable: `Pinterest could not list the account's boards: ${(err as Error).message}` };
      }
      if (boards.some((b) => b.id === o.board_id)) return { issues: [] };
      return {
        issues: [
          {
            path: 'platform_options.pinterest.board_id',
            message: `board ${o.board_id} is not one of the connected Pinterest account's boards${boards.length ? ` (boards: ${boards.map((b) => `${b.name} ${b.id}`).join(', ')})` : ' (it has none)'}`,
          },
        ],
      };
    },

    async publish(ctx) {
      const cp = ctx.checkpoint.data as PinterestCheckpoint;
      if (cp.pinId) return outcome(cp.pinId);
      const s = await session(ctx);
      if (cp.pinRequestedAt && cp.boardId && cp.sent) {
        // An earlier attempt sent the pin and never heard back: look before pinning again.
        let found: string | null;
        try {
          found = await findPin(s, cp.boardId, fromSaved(cp.sent), Math.min(cp.pinRequestedAt, ctx.target.attemptStartedAt));
        } catch (err) {
          throw new OutcomeUnknownError(`An earlier attempt sent the pin unanswered and board ${cp.boardId}'s pins cannot be read: ${(err as Error).message}`, { platformCode: 'read-back', cause: err });
        }
        if (found) {
          await ctx.checkpoint.save({ pinId: found });
          return outcome(found);
        }
      }
      const board = await boardOf(ctx, s);
      const source = await mediaSource(ctx, s);
      const o = ctx.target.options as PinterestOptions;
      const sent = fingerprint(ctx);
      const body: Record<string, unknown> = {
        board_id: board,
        description: sent.description,
        media_source: source,
        ...(sent.title !== null ? { title: sent.title } : {}),
        ...(sent.link !== null ? { link: sent.link } : {}),
        ...(o.alt_text !== undefined ? { alt_text: o.alt_text } : {}),
      };
      const requestedAt = ctx.clock.now();
      await ctx.checkpoint.save({ sent: toSaved(sent), pinRequestedAt: requestedAt });
      let id: string;
      try {
        const res = await s.call('pin', true, (c) => c.request<{ id?: string }>('/v5/pins', { method: 'POST', json: body }));
        if (!res.body.id) throw new OutcomeUnknownError('Pinterest answered without the pin id', { platformCode: 'bad-answer' });
        id = res.body.id;
      } catch (err) {
        if (!(err instanceof OutcomeUnknownError)) throw err;
        // No idempotency key on Pinterest: list the board's pins before anyone is asked to review it.
        const found = await lookAfterUnknown(ctx, s, board, sent, requestedAt);
        if (!found) throw err;
        id = found;
      }
      await ctx.checkpoint.save({ pinId: id });
      return outcome(id);
    },

    async reconcile(ctx): Promise<ReconcileResult> {
      const cp = ctx.checkpoint.data as PinterestCheckpoint;
      if (cp.pinId) return { state: 'published', outcome: outcome(cp.pinId) };
      if (!cp.pinRequestedAt || !cp.boardId || !cp.sent) return { state: 'not_published', reason: 'The pin request was never sent (only the board choice or the video upload happened)' };
      try {
        const s = await session(ctx);
        const since = Math.min(cp.pinRequestedAt, ctx.target.attemptStartedAt);
        const sent = fromSaved(cp.sent);
        let found = await findPin(s, cp.boardId, sent, since);
        const settleAt = cp.pinRequestedAt + settleMs;
        if (!found && ctx.clock.now() < settleAt) {
          await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
          found = await findPin(s, cp.boardId, sent, since);
        }
        if (found) {
          await ctx.checkpoint.save({ pinId: found });
          return { state: 'published', outcome: outcome(found) };
        }
        return { state: 'not_published', reason: `No pin with this title, description and link on board ${cp.boardId} since ${new Date(since).toISOString()}` };
      } catch (err) {
        const reason = err instanceof PublishError || err instanceof Error ? err.message : String(err);
        return { state: 'unknown', reason: `Could not list board ${cp.boardId}'s pins on Pinterest to tell whether the pin exists: ${reason}` };
      }
    },
  };
}
