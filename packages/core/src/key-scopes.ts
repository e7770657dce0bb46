/**
 * What an API key may do (no imports: the route table and the SDK's light client read it
 * without loading zod). Each keyed route declares the least scope that may call it
 * (`scope` in its declaration, routes/api-routes.ts); a key's scope reaches every route its own
 * scope or a narrower one is declared with. docs/api.md "Key scopes".
 *
 * - `full`: everything the user may do (every key made before scopes existed).
 * - `agent`: create, edit and cancel posts and media; every post it makes is held for a
 *   person's approval. No approving, rejecting or taking down, no keys, connections,
 *   settings, webhooks or review links.
 * - `read`: what changes nothing (GETs, and the POSTs declared readOnly: validating a key
 *   or a post).
 */
export const KEY_SCOPES = ['full', 'agent', 'read'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The scope a key gets when none is asked for: today's behaviour. */
export const DEFAULT_KEY_SCOPE: KeyScope = 'full';

/** Narrowest first: a key reaches the routes declared with its own scope or a lower one. */
const RANK: Readonly<Record<KeyScope, number>> = { read: 0, agent: 1, full: 2 };

/** Whether a key of `scope` may call a route declared with `needed`. */
export function scopeAllows(scope: KeyScope, needed: KeyScope): boolean {
  return RANK[scope] >= RANK[needed];
}

export const isKeyScope = (value: unknown): value is KeyScope => typeof value === 'string' && (KEY_SCOPES as readonly string[]).includes(value);
