/** got error codes for requests that never reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL', 'ERR_INVALID_URL']);

/**
 * TLS handshake failures: the certificate was refused or the handshake broke, so not one
 * byte of the request was written (Node writes the request only once the handshake is done).
 */
const TLS_HANDSHAKE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'EPROTO',
]);

/**
 * Decides whether a transport failure may have reached the server. A failed DNS lookup, a
 * refused connection, a failed TLS handshake and a timeout while connecting happen before
 * the request leaves: those are safe to retry even for a call that creates a post.
 */
export function wasSent(err: unknown): boolean {
  const e = err as { code?: string; event?: string };
  if (e.code && (NOT_SENT.has(e.code) || TLS_HANDSHAKE.has(e.code) || e.code.startsWith('CERT_') || e.code.startsWith('ERR_SSL_'))) return false;
  if (e.code === 'ETIMEDOUT' && (e.event === 'lookup' || e.event === 'connect' || e.event === 'secureConnect')) return false;
  return true;
}
