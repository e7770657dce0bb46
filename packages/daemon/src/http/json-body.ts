import type { Context } from 'hono';
import { ApiError } from './errors';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/**
 * The most values (array items and object members, at any depth) a request body may hold.
 * The largest real body (a queue of 200 slots listing every platform: under 3,000) stays below; a
 * 10 MB body of 500,000 array items took the schema check 3.4 s and as many errors
 * (issue 28), so such a body is refused before any schema sees it.
 */
export const MAX_JSON_VALUES = 10_000;

/**
 * True when the JSON text certainly holds more than `limit` values: more commas, `[` and
 * `{` outside strings than that (each value but the first of a container follows a
 * comma; each container is a value). One pass over the characters, so a body of half a
 * million items is refused before JSON.parse builds them (which alone took longer than
 * the event loop may be held). Small texts cannot hold that many and are not scanned.
 */
export function textExceedsJsonValues(text: string, limit: number = MAX_JSON_VALUES): boolean {
  if (text.length <= 2 * limit) return false;
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x2c || c === 0x5b || c === 0x7b) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** True when `value` holds more than `limit` values; stops counting there. */
export function exceedsJsonValues(value: unknown, limit: number = MAX_JSON_VALUES): boolean {
  let seen = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    seen += children.length;
    if (seen > limit) return true;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}

/**
 * The request's JSON object. 415 for a body in another content type, 400 for a body
 * that is not JSON or not an object. `allowEmpty` treats a missing body as `{}`.
 */
export async function readJsonObject(c: Context, { allowEmpty = false } = {}): Promise<Record<string, unknown>> {
  const raw = await c.req.text();
  const type = c.req.header('content-type');
  if (raw.trim() === '') {
    if (allowEmpty) return {};
    throw new ApiError('invalid_request', 'request body must be a JSON object', [{ path: '(body)', message: 'missing body' }]);
  }
  if (!type || !JSON_TYPE.test(type.trim())) {
    throw new ApiError('unsupported_media_type', `send the body as JSON with Content-Type: application/json (got ${type ? JSON.stringify(type) : 'none'})`);
  }
  if (textExceedsJsonValues(raw)) throw tooManyValues();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new ApiError('invalid_request', 'request body is not valid JSON', [{ path: '(body)', message: (e as Error).message }]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'request body must be a JSON object', [{ path: '(body)', message: 'expected an object' }]);
  }
  if (exceedsJsonValues(value)) throw tooManyValues();
  return value as Record<string, unknown>;
}

function tooManyValues(): ApiError {
  return new ApiError('invalid_request', `request body holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values (array items and object members); no request needs that many`, [
    { path: '(body)', message: `more than ${MAX_JSON_VALUES} values` },
  ]);
}
