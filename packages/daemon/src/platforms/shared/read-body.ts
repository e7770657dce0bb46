import type { Context } from 'hono';

/** Reads a request body, optionally stopping after `limit` bytes (for `cut` faults). */
export async function readBody(c: Context, limit?: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const stream = c.req.raw.body;
  if (!stream) return { bytes: Buffer.alloc(0), complete: true };
  const reader = stream.getReader();
  const parts: Buffer[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = Buffer.from(value);
    if (limit !== undefined && n + chunk.length > limit) {
      chunk = chunk.subarray(0, limit - n);
      parts.push(chunk);
      await reader.cancel().catch(() => {});
      return { bytes: Buffer.concat(parts), complete: false };
    }
    parts.push(chunk);
    n += chunk.length;
  }
  return { bytes: Buffer.concat(parts), complete: true };
}
