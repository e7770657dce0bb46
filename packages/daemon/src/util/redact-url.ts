/**
 * Query parameters that carry a credential or a signature, lower-cased: OAuth and API
 * tokens, authorization codes and verifiers (an OAuth callback's `code` buys a token); AWS SigV4 and SigV2 presigned URLs (S3, CloudFront); Google Cloud Storage V4 and
 * V2 signed URLs; Azure SAS (`sig`); Alibaba OSS. Anyone holding one of these can fetch
 * the object (or more) until it expires, so none is logged or shown in an error.
 */
export const SECRET_URL_PARAMS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'code',
  'code_verifier',
  'oauth_token',
  'oauth_verifier',
  'id_token',
  'client_secret',
  'token',
  'key',
  'api_key',
  'apikey',
  'password',
  'secret',
  'x-amz-credential',
  'x-amz-security-token',
  'x-amz-signature',
  'awsaccesskeyid',
  'signature',
  'policy',
  'key-pair-id',
  'x-goog-credential',
  'x-goog-signature',
  'googleaccessid',
  'sig',
  'ossaccesskeyid',
  'security-token',
]);

// scheme://user:password@host -> scheme://[redacted]@host (userinfo ends before the first / ? # after it).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
// ?name=value or &name=value, the name any case, percent-encoded or not.
const PARAM = /([?&;])([^=&#\s?]+)=([^&#\s"'<>]*)/g;

/**
 * Takes credentials out of every URL inside `text` (a log message, an error message):
 * the userinfo and the value of each parameter in SECRET_URL_PARAMS. The rest of the URL
 * stays, so the message still says which file it was.
 */
export function redactUrlSecrets(text: string): string {
  if (!text.includes('=') && !text.includes('@')) return text;
  return text.replace(USERINFO, '$1[redacted]@').replace(PARAM, (whole, sep: string, name: string) => {
    let key = name;
    try {
      key = decodeURIComponent(name);
    } catch {
      // A malformed escape: judge the name as written.
    }
    return SECRET_URL_PARAMS.has(key.toLowerCase()) ? `${sep}${name}=[redacted]` : whole;
  });
}
