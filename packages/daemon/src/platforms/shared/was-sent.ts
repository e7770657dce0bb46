/** got error codes for requests that never reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/** Decides whether a transport failure may have reached the server (a timeout while connecting did not). */
export function wasSent(err: unknown): boolean {
  const e = err as { code?: string; event?: string };
  if (e.code && NOT_SENT.has(e.code)) return false;
  if (e.code === 'ETIMEDOUT' && (e.event === 'lookup' || e.event === 'connect' || e.event === 'secureConnect')) return false;
  return true;
}
