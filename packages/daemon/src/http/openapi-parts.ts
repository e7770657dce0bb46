/** Pieces of the OpenAPI document shared by the hand-written paths and those generated from the route table. */
export type Json = Record<string, unknown>;

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
export const json = (schema: Json) => ({ 'application/json': { schema } });
export const ok = (id: string, description = 'Success') => ({ description, content: json(ref(id)) });
export const err = (description: string) => ({ description, content: json(ref('Error')) });

export const ERR = {
  400: err('Invalid or missing parameters (`invalid_request`); `details` lists each problem.'),
  401: err('API key missing, malformed, unknown, revoked or rotated, or sent in another header (`unauthorized`).'),
  403: err('Forbidden: another user\'s resource (`forbidden`), a platform not connected (`platform_not_connected`), no Facebook page (`facebook_page_not_selected`), or plain HTTP behind a proxy (`https_required`).'),
  404: err('No such resource (`not_found`).'),
  409: err('Conflict with the resource\'s state (`conflict`) or an Idempotency-Key reused with another body (`idempotency_conflict`).'),
  410: err('Gone (`gone`).'),
  413: err('Request body larger than 10 MB (`payload_too_large`).'),
  415: err('Body is not JSON (`unsupported_media_type`).'),
  429: {
    description: 'Rate limit of the endpoint class exceeded (`rate_limited`); wait Retry-After seconds.',
    headers: { 'Retry-After': { description: 'Whole seconds to wait (at least 1).', schema: { type: 'integer', minimum: 1 } } },
    content: json(ref('Error')),
  },
  500: err('Internal error (`internal`); no details leak.'),
  503: {
    description: 'The database stayed busy (`unavailable`); nothing was written; retry after Retry-After.',
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
    content: json(ref('Error')),
  },
} as const;

export const pick = (...codes: (keyof typeof ERR)[]) => Object.fromEntries(codes.map((c) => [String(c), ERR[c]]));
export const AUTHED = [{ ApiKey: [] }, { Bearer: [] }];
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the first answer for the same body within 24 h (header Idempotent-Replayed: true); another body is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
export const SOURCE = {
  name: 'X-SocialPub-Source',
  in: 'header',
  required: false,
  description: 'How the job is made, recorded as the post\'s `source`: api (default), mcp or cli. With agent-approval on, an `mcp` job waits in pending_approval.',
  schema: { type: 'string', enum: ['api', 'mcp', 'cli'] },
};
export const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window of this endpoint class.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};
export const limited = (response: Json) => ({ ...response, headers: RATE_HEADERS });
export const CSRF = {
  name: 'X-CSRF-Token',
  in: 'header',
  required: false,
  description: "With the session cookie (not a key): the session's csrf_token (GET /auth/session).",
  schema: { type: 'string' },
};
