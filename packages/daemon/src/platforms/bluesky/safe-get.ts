import type { AddressGuard } from '../../net/address-guard';
import { safeFetch } from '../../net/safe-fetch';

export interface SafeBody {
  status: number;
  url: URL;
  contentType: string;
  bytes: Buffer;
}

/**
 * GET through the daemon's SSRF-safe fetcher (public addresses only, every redirect hop
 * checked, the socket pinned): at most `maxBytes` of body, or an error naming the limit.
 */
export async function safeGet(url: string, guard: AddressGuard, signal: AbortSignal, maxBytes: number): Promise<SafeBody> {
  const res = await safeFetch(url, { guard, signal, headersTimeoutMs: 15_000, idleTimeoutMs: 15_000 });
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw new Error(`${res.url.host} answered ${declared} bytes, more than the ${maxBytes} read`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = await res.body.read(); chunk !== null; chunk = await res.body.read()) {
    size += chunk.length;
    if (size > maxBytes) {
      res.body.destroy();
      throw new Error(`${res.url.host} answered more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return { status: res.status, url: res.url, contentType: (res.headers['content-type'] ?? '').toLowerCase(), bytes: Buffer.concat(chunks) };
}
