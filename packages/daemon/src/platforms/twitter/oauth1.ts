import { createHmac, randomBytes } from 'node:crypto';

/** An X app's consumer key pair and a user's access token pair (OAuth 1.0a user context). */
export interface OAuth1Keys {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a (RFC 5849 §3.6) requires: encodeURIComponent leaves !'()* alone. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The HMAC-SHA1 signature of RFC 5849 §3.4. `params` are the query parameters, the
 * `oauth_*` parameters and (for form bodies only) the form fields; JSON and multipart
 * bodies are not signed, as X documents.
 */
export function oauth1Signature(method: string, url: string, params: Array<[string, string]>, consumerSecret: string, tokenSecret: string): string {
  const u = new URL(url);
  const base = `${u.protocol}//${u.host.toLowerCase()}${u.pathname}`;
  const normalized = params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const baseString = [method.toUpperCase(), percentEncode(base), percentEncode(normalized)].join('&');
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(baseString).digest('base64');
}

/** Builds the `Authorization: OAuth …` header for one request. */
export function oauth1Header(
  method: string,
  url: string,
  keys: OAuth1Keys,
  options: { formParams?: Record<string, string>; nonce?: string; timestamp?: number } = {},
): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: keys.consumerKey,
    oauth_nonce: options.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_token: keys.token,
    oauth_version: '1.0',
  };
  const params: Array<[string, string]> = [...new URL(url).searchParams.entries(), ...Object.entries(oauth), ...Object.entries(options.formParams ?? {})];
  oauth.oauth_signature = oauth1Signature(method, url, params, keys.consumerSecret, keys.tokenSecret);
  return (
    'OAuth ' +
    Object.entries(oauth)
      .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
      .join(', ')
  );
}

/** Parses an `Authorization: OAuth …` header into its parameters (null when it is not one). */
export function parseOAuth1Header(header: string | undefined): Record<string, string> | null {
  if (!header || !/^OAuth\s/i.test(header)) return null;
  const out: Record<string, string> = {};
  for (const m of header.slice(6).matchAll(/([A-Za-z0-9_%.-]+)="([^"]*)"/g)) out[decodeURIComponent(m[1] as string)] = decodeURIComponent(m[2] as string);
  return out;
}

/** Checks a request's OAuth 1.0a signature (the simulator's side). */
export function verifyOAuth1(method: string, url: string, header: Record<string, string>, consumerSecret: string, tokenSecret: string, formParams: Record<string, string> = {}): boolean {
  const { oauth_signature: signature, ...rest } = header;
  if (!signature) return false;
  const params: Array<[string, string]> = [
    ...new URL(url).searchParams.entries(),
    ...Object.entries(rest).filter(([k]) => k.startsWith('oauth_')),
    ...Object.entries(formParams),
  ];
  return oauth1Signature(method, url, params, consumerSecret, tokenSecret) === signature;
}
