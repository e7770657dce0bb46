import type { Context } from 'hono';
import { exceedsJsonValues, MAX_JSON_VALUES, textExceedsJsonValues } from '../util/json-values';
import { ApiError } from './errors';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

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
