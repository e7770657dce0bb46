import type { BlueskyOptions } from '@socialpub/core';
import type { MediaItem, PublishContext } from '../adapter';
import { PermanentError, PublishError } from '../errors';
import { readMediaChunk } from '../shared/read-media-chunk';
import { POST_COLLECTION, type BlueskySession, type StrongRef } from './bluesky-session';
import { reusableBlob, saveBlob, type BlobRef } from './checkpoint';
import { buildFacets, firstLink } from './facets';
import type { LinkCardFetcher } from './link-card';
import { BLUESKY_LIMITS } from './validate';
import { uploadVideo, type VideoUploadOptions } from './video-upload';

export interface PostRecordOptions {
  /** Fetches the first link's card; null: no cards. */
  linkCards: LinkCardFetcher | null;
  video: VideoUploadOptions;
}

/** What one record carries beside its text: media (under checkpoint keys starting `prefix`), alt texts, a reply. */
export interface RecordParts {
  text: string;
  media: MediaItem[];
  /** Checkpoint keys of this record's blobs start with it ("" for the post, "p2." for part 2). */
  prefix: string;
  alts: string[];
  reply?: { root: StrongRef; parent: StrongRef };
}

async function uploadBlob(ctx: PublishContext, s: BlueskySession, key: string, bytes: Buffer, mimeType: string): Promise<BlobRef> {
  const done = reusableBlob(ctx, key);
  if (done) return done;
  const res = await s.call('image upload', false, (c) => c.procedure<{ blob: BlobRef }>('com.atproto.repo.uploadBlob', { bytes: { data: bytes, contentType: mimeType }, timeoutMs: 10 * 60_000 }));
  await saveBlob(ctx, key, res.body.blob);
  return res.body.blob;
}

/** The embed of a post or part: images with alt texts, a video, or (text alone) a card for the first link. */
async function embedFor(ctx: PublishContext, s: BlueskySession, p: RecordParts, o: PostRecordOptions): Promise<Record<string, unknown> | undefined> {
  const { media: items, prefix, alts } = p;
  const video = items.find((m) => m.kind === 'video');
  if (video) {
    const blob = await uploadVideo(ctx, s, `${prefix}0`, video, o.video);
    return { $type: 'app.bsky.embed.video', video: blob, ...(alts[0] ? { alt: alts[0] } : {}) };
  }
  if (items.length > 0) {
    // Sizes unknown when the request was accepted (a URL not prepared then) are checked here, before any upload.
    for (const [i, item] of items.entries()) {
      if (item.size > BLUESKY_LIMITS.imageBytes) {
        throw new PermanentError(`media ${i + 1}: Bluesky takes images up to ${BLUESKY_LIMITS.imageBytes.toLocaleString('en-US')} bytes; this one is ${item.size.toLocaleString('en-US')} bytes`, { platformCode: 'BlobTooLarge' });
      }
    }
    const images = [];
    for (const [i, item] of items.entries()) {
      const bytes = await readMediaChunk(item, 0, item.size);
      images.push({ image: await uploadBlob(ctx, s, `${prefix}${i}`, bytes, item.mimeType), alt: alts[i] ?? '' });
    }
    return { $type: 'app.bsky.embed.images', images };
  }
  const link = firstLink(p.text);
  if (!link || !o.linkCards || (ctx.target.options as BlueskyOptions).link_card === false) return undefined;
  try {
    const card = await o.linkCards(link, ctx.signal);
    const external: Record<string, unknown> = { uri: card.uri, title: card.title, description: card.description };
    if (card.thumb) external.thumb = await uploadBlob(ctx, s, `${prefix}card`, card.thumb.bytes, card.thumb.mimeType);
    return { $type: 'app.bsky.embed.external', external };
  } catch (err) {
    if (err instanceof PublishError && !(err instanceof PermanentError)) throw err;
    ctx.log.warn('bluesky link card left out', { url: link, error: (err as Error).message });
    return undefined;
  }
}

/** The app.bsky.feed.post record: text (NFC), facets with mentions resolved, langs, self-labels, embed, reply. */
export async function postRecord(ctx: PublishContext, s: BlueskySession, p: RecordParts, o: PostRecordOptions): Promise<Record<string, unknown>> {
  const opts = ctx.target.options as BlueskyOptions;
  const text = p.text.normalize('NFC');
  const facets = await buildFacets(text, async (handle) => {
    try {
      const res = await s.call('mention lookup', false, (c) => c.query<{ did: string }>('com.atproto.identity.resolveHandle', { params: { handle } }));
      return res.body.did ?? null;
    } catch (err) {
      if (err instanceof PermanentError) return null; // an unknown handle stays plain text
      throw err;
    }
  });
  const record: Record<string, unknown> = { $type: POST_COLLECTION, text, createdAt: new Date(ctx.clock.now()).toISOString() };
  if (facets.length > 0) record.facets = facets;
  if (opts.langs?.length) record.langs = opts.langs;
  if (opts.labels?.length) record.labels = { $type: 'com.atproto.label.defs#selfLabels', values: opts.labels.map((val) => ({ val })) };
  const embed = await embedFor(ctx, s, { ...p, text }, o);
  if (embed) record.embed = embed;
  if (p.reply) record.reply = p.reply;
  return record;
}
