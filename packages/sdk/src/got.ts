import type { Got } from 'got';

let loading: Promise<Got> | undefined;

/**
 * got, loaded on first use. got is ESM-only: a dynamic import works from both builds on
 * every Node >= 22 (a top-level `require('got')` in the CommonJS build would need 22.12),
 * and a program that never sends a request never pays for loading it.
 */
export function loadGot(): Promise<Got> {
  loading ??= import('got').then((module) => module.default);
  return loading;
}
