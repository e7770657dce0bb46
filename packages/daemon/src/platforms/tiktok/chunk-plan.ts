/** TikTok's FILE_UPLOAD chunk rules (docs/reference/platforms.md §5.2, media transfer guide). */
export interface ChunkRules {
  /** Smallest chunk (files below it go as one chunk). Default 5 MiB. */
  min: number;
  /** Largest regular chunk, and the largest file sent as a single chunk. Default 64 MiB. */
  max: number;
  /** Largest final chunk (it absorbs the remainder). Default 128 MiB. */
  finalMax: number;
  /** At most this many chunks. Default 1000. */
  maxChunks: number;
}

export const TIKTOK_CHUNK_RULES: ChunkRules = { min: 5 * 1024 * 1024, max: 64 * 1024 * 1024, finalMax: 128 * 1024 * 1024, maxChunks: 1000 };

export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

/**
 * `total_chunk_count = floor(video_size / chunk_size)`, the last chunk absorbing the
 * remainder. Files up to `max` go whole (as Postiz does); larger ones in `preferred`-byte
 * chunks (default 10 MiB), grown when 1000 chunks would not be enough.
 */
export function planChunks(videoSize: number, rules: ChunkRules = TIKTOK_CHUNK_RULES, preferred = 10 * 1024 * 1024): ChunkPlan {
  if (videoSize <= rules.max) return { videoSize, chunkSize: videoSize, totalChunkCount: 1 };
  let chunkSize = Math.min(Math.max(preferred, rules.min), rules.max);
  while (Math.floor(videoSize / chunkSize) > rules.maxChunks && chunkSize < rules.max) chunkSize = Math.min(rules.max, chunkSize * 2);
  return { videoSize, chunkSize, totalChunkCount: Math.floor(videoSize / chunkSize) };
}

/** Byte range [first, last] of chunk `index` under a plan. */
export function chunkRange(plan: ChunkPlan, index: number): { first: number; last: number } {
  const first = index * plan.chunkSize;
  const last = index === plan.totalChunkCount - 1 ? plan.videoSize - 1 : first + plan.chunkSize - 1;
  return { first, last };
}

/** Why a declared plan breaks the rules (the simulator's check), or null when it is valid. */
export function planProblem(plan: { videoSize: number; chunkSize: number; totalChunkCount: number }, rules: ChunkRules = TIKTOK_CHUNK_RULES): string | null {
  const { videoSize: size, chunkSize: chunk, totalChunkCount: count } = plan;
  if (!Number.isInteger(size) || size <= 0) return 'video_size must be a positive integer';
  if (!Number.isInteger(chunk) || chunk <= 0) return 'chunk_size must be a positive integer';
  if (!Number.isInteger(count) || count < 1 || count > rules.maxChunks) return `total_chunk_count must be between 1 and ${rules.maxChunks}`;
  if (size < rules.min) {
    if (chunk !== size || count !== 1) return 'A video smaller than the minimum chunk size must be uploaded as one chunk with chunk_size equal to video_size';
    return null;
  }
  if (count === 1) return chunk === size && size <= rules.max ? null : 'A single chunk must hold the whole video and be at most the maximum chunk size';
  if (chunk < rules.min || chunk > rules.max) return `chunk_size must be between ${rules.min} and ${rules.max} bytes`;
  if (count !== Math.floor(size / chunk)) return `total_chunk_count must be floor(video_size / chunk_size) = ${Math.floor(size / chunk)}`;
  if (size - (count - 1) * chunk > rules.finalMax) return `The final chunk would exceed ${rules.finalMax} bytes`;
  return null;
}
