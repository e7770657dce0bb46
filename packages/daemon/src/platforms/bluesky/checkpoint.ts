import type { PublishContext } from '../adapter';
import type { StrongRef } from './bluesky-session';

/** A blob reference as the PDS answers it (`{$type: 'blob', ref: {$link}, mimeType, size}`). */
export type BlobRef = Record<string, unknown>;

/** What a Bluesky publish keeps in the target's checkpoint. */
export interface BlueskyCheckpoint {
  did?: string;
  /** Uploaded blobs by media key ("0", "p2.0", "card"), with when they were uploaded (unreferenced blobs are collected by the PDS). */
  blobs?: Record<string, { blob: BlobRef; at: number }>;
  /** Video-service jobs by media key. */
  videoJobs?: Record<string, string | undefined>;
  /** Record keys whose createRecord went out (a later attempt asks getRecord there first). */
  requested?: Record<string, number>;
  /** The post (part 1). */
  post?: StrongRef;
  /** Every record this target made, in order (the post, thread parts, the comment). */
  made?: Array<StrongRef>;
}

export const checkpointOf = (ctx: Pick<PublishContext, 'checkpoint'>) => ctx.checkpoint.data as BlueskyCheckpoint;

/** A blob the PDS still has: referenced within this long after upload (PDSes collect orphans after about an hour). */
const BLOB_REUSE_MS = 30 * 60_000;

/** The blob uploaded earlier under `key`, while the PDS still keeps it. */
export function reusableBlob(ctx: PublishContext, key: string): BlobRef | null {
  const prev = checkpointOf(ctx).blobs?.[key];
  return prev && ctx.clock.now() - prev.at < BLOB_REUSE_MS ? prev.blob : null;
}

export async function saveBlob(ctx: PublishContext, key: string, blob: BlobRef): Promise<void> {
  await ctx.checkpoint.save({ blobs: { ...(checkpointOf(ctx).blobs ?? {}), [key]: { blob, at: ctx.clock.now() } } });
}

/** The records a published target made, the post last (for take-downs): from the checkpoint's `made`. */
export function madeRecords(checkpoint: Record<string, unknown>, postId: string): string[] {
  const made = ((checkpoint as BlueskyCheckpoint).made ?? []).map((m) => m.uri).filter((u) => u !== postId);
  return [...made.reverse(), postId];
}
