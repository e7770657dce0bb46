import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError, type PublishError } from '../errors';
import { GraphApiError, GraphTransportError } from './graph-client';

export interface ClassifyContext {
  now: number;
  /** The call could have made the post visible: a lost or ambiguous answer is "outcome unknown", not "retry". */
  publishing: boolean;
  /** Platform name for messages ("Instagram"). */
  label: string;
}

const AUTH_SUBCODES = new Set([458, 459, 460, 463, 464, 467, 492, 33]);
const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);

/** `code/subcode` as stored on the target (`platform_code`). */
export function graphCode(err: GraphApiError): string {
  return err.error.error_subcode ? `${err.error.code}/${err.error.error_subcode}` : String(err.error.code);
}

/** The platform's own words, with the identifiers Meta support asks for. */
export function graphMessage(label: string, err: GraphApiError): string {
  const e = err.error;
  const text = e.error_user_msg && e.error_user_msg !== e.message ? `${e.message} ${e.error_user_msg}` : e.message;
  const ids = [`code ${e.code}`];
  if (e.error_subcode) ids.push(`subcode ${e.error_subcode}`);
  if (e.fbtrace_id) ids.push(`fbtrace_id ${e.fbtrace_id}`);
  return `${label}: ${text} (${ids.join(', ')})`;
}

/** True for an error that says the token is expired, invalid or revoked. */
export function isAuthError(err: unknown): boolean {
  if (!(err instanceof GraphApiError)) return false;
  const e = err.error;
  if (e.code === 190 || e.code === 102) return true;
  if (e.error_subcode && AUTH_SUBCODES.has(e.error_subcode) && e.type === 'OAuthException' && e.code !== 100) return true;
  return /Error validating access token|REVOKED_ACCESS_TOKEN|session has been invalidated|not an Instagram business/i.test(e.message);
}

/**
 * Maps a Graph failure to the publisher's control flow (docs/reference/platforms.md §1.6, §2.6, §4.6):
 * transient -> retry; throttling and publishing quotas -> rate limited; token problems ->
 * auth expired; a lost answer to a publishing call -> outcome unknown; the rest permanent.
 */
export function classifyGraphError(err: unknown, ctx: ClassifyContext): PublishError {
  if (err instanceof GraphTransportError) {
    // Before anything was sent (DNS, refused, TLS handshake) even a publishing call is safe to retry.
    if (ctx.publishing && err.sent) return new OutcomeUnknownError(`${ctx.label}: ${err.message}; the post may or may not exist`, { cause: err });
    return new RetryableError(`${ctx.label}: ${err.message}`, { cause: err });
  }
  if (!(err instanceof GraphApiError)) {
    if (err instanceof Error && 'kind' in err) return err as PublishError;
    return new RetryableError(`${ctx.label}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const e = err.error;
  const message = graphMessage(ctx.label, err);
  const platformCode = graphCode(err);
  const opts = { platformCode, cause: err };
  if (isAuthError(err)) return new AuthExpiredError(message, opts);
  // Publishing quota (IG 9/2207042; Threads and Reels answer code 9 too): the adapter refines `until` from the limit endpoint.
  if (e.code === 9) return new RateLimitedError(message, { ...opts, until: ctx.now + 24 * 3_600_000 });
  if (THROTTLE_CODES.has(e.code) || (e.code >= 80001 && e.code <= 80014) || e.error_subcode === 1390008) {
    // Code 4 is the application's request limit (every user of the app); the others are the user's, page's or account's.
    return new RateLimitedError(message, { ...opts, until: ctx.now + regainAfterMs(err), ...(e.code === 4 ? { appliesTo: 'app' as const } : {}) });
  }
  if (e.code === 368) return new RateLimitedError(message, { ...opts, until: ctx.now + 3_600_000 });
  if (e.code === 9007 || e.error_subcode === 2207027) return new RetryableError(message, { ...opts, after: 60_000 });
  // Media builder / container gone: recreate (the adapter drops the container from its checkpoint).
  if (e.error_subcode === 2207008 || e.error_subcode === 2207006 || e.error_subcode === 2207020) return new RetryableError(message, { ...opts, after: 60_000 });
  const transient = e.is_transient === true || e.code === 1 || e.code === 2 || e.code === -1 || e.code === -2 || err.status >= 500 || e.error_subcode === 2207082;
  // 2207057 (a bad thumb_offset) says code 1 but never heals (docs/reference/platforms.md §1.6).
  if (transient && e.error_subcode !== 2207032 && e.error_subcode !== 2207053 && e.error_subcode !== 2207057) {
    if (ctx.publishing) return new OutcomeUnknownError(`${message}; the post may or may not exist`, opts);
    return new RetryableError(message, opts);
  }
  if (e.error_subcode === 2207032 || e.error_subcode === 2207053 || e.error_subcode === 2207003) return new RetryableError(message, opts);
  return new PermanentError(message, opts);
}

/** `X-Business-Use-Case-Usage` carries `estimated_time_to_regain_access` in minutes; default 15 min. */
function regainAfterMs(err: GraphApiError): number {
  const header = err.headers['x-business-use-case-usage'];
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Record<string, { estimated_time_to_regain_access?: number }[]>;
      const minutes = Math.max(0, ...Object.values(parsed).flat().map((u) => u.estimated_time_to_regain_access ?? 0));
      if (minutes > 0) return minutes * 60_000;
    } catch {
      // A malformed header is no reason to fail: fall back to the default wait.
    }
  }
  return 15 * 60_000;
}
