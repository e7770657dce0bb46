import * as gotModule from 'got';
import type { Got } from 'got';

/**
 * got itself. got is ESM-only: the ESM build sees its default export directly, while in the
 * CommonJS build `require('got')` (Node >= 22.12 loads ESM synchronously) yields the module
 * namespace, which the bundler wraps once more, so the function sits one `default` deeper.
 */
const candidate = (gotModule as unknown as { default: Got | { default: Got } }).default;
export const got: Got = typeof candidate === 'function' ? candidate : candidate.default;
