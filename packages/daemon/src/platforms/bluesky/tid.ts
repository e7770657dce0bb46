import { createHash } from 'node:crypto';

/** The base32-sortable alphabet of AT Protocol TIDs (atproto.com/specs/tid). */
const S32 = '234567abcdefghijklmnopqrstuvwxyz';
/** 13 characters; the first carries the top bit, which is always 0. */
export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

/** 2023-01-01T00:00:00Z in microseconds: derived keys' timestamps lie in the 2^45 µs (~407 days) after it, never in the future. */
const DERIVED_EPOCH_US = 1_672_531_200_000_000n;
const WINDOW_US = 1n << 45n;

/** A TID from a microsecond timestamp (53 bits) and a 10-bit clock id. */
export function tid(micros: bigint, clockId: number): string {
  let n = ((micros & ((1n << 53n) - 1n)) << 10n) | BigInt(clockId & 0x3ff);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)]! + out;
    n >>= 5n;
  }
  return out;
}

/**
 * The record key of one post a target makes (`part` 1 is the post, 2… its thread parts,
 * `comment` its first comment): a TID derived from the target id alone, so every attempt,
 * after any crash, writes to the same key. A second create at that key is refused by the
 * PDS, and getRecord at it says whether an unanswered attempt made the post.
 */
export function recordKeyFor(targetId: string, part: number | 'comment'): string {
  const h = createHash('sha256').update(`socialpub:bluesky:${targetId}#${part}`).digest();
  const micros = DERIVED_EPOCH_US + (h.readBigUInt64BE(0) % WINDOW_US);
  return tid(micros, h.readUInt16BE(8));
}
