import { DEFAULT_KEY_SCOPE, KEY_SCOPES, formatInstant, isKeyScope, type Routes } from '@socialpub/core';
import type { ApiKeyInfo } from '../../store/api-keys';
import type { RouteDeps } from '../deps';
import { ApiError, invalid } from '../errors';
import { readJsonObject } from '../json-body';
import type { RouteHandlers } from '../route-table/mount-route';

const MAX_NAME = 100;

const presentKey = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: formatInstant(k.createdAt),
  last_used_at: k.lastUsedAt === null ? null : formatInstant(k.lastUsedAt),
  scope: k.scope,
});

/**
 * The caller's API keys (extension, for the dashboard's Settings): list (never a secret),
 * create (of a scope: full unless asked) and rotate (the same scope; the full key only in
 * that answer; only its hash is stored), revoke.
 * Another user's key is not found. Declared in core's route table; POST reads its body
 * itself (its own messages for an unknown field or a bad name, as always).
 */
export function keysHandlers({ store, clock }: Pick<RouteDeps, 'store' | 'clock'>): RouteHandlers<Routes, 'keys.list' | 'keys.create' | 'keys.revoke' | 'keys.rotate'> {
  const own = (userId: string, id: string) => {
    const key = store.apiKeys.get(id);
    if (!key || key.userId !== userId || key.revokedAt !== null) throw new ApiError('not_found', `no active key ${id}`);
    return key;
  };
  return {
    'keys.list': (_input, c) => {
      const keys = store.apiKeys.list(c.get('user').id).filter((k) => k.revokedAt === null);
      return { data: keys.map(presentKey) };
    },
    'keys.create': { raw: true, handle: async (c) => {
      const body = await readJsonObject(c, { allowEmpty: true });
      const details = Object.keys(body)
        .filter((k) => k !== 'name' && k !== 'scope')
        .map((k) => ({ path: k, message: 'unknown field' }));
      const name = body.name;
      if (name !== undefined && name !== null && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME)) {
        details.push({ path: 'name', message: `must be a non-empty string of at most ${MAX_NAME} characters` });
      }
      const scope = body.scope ?? DEFAULT_KEY_SCOPE;
      if (!isKeyScope(scope)) details.push({ path: 'scope', message: `must be one of ${KEY_SCOPES.join(', ')}` });
      if (details.length > 0 || !isKeyScope(scope)) throw invalid(details);
      const userId = c.get('user').id;
      const created = await store.commits.durable(() => store.apiKeys.create(userId, typeof name === 'string' ? name.trim() : null, clock.now(), scope));
      return { ...presentKey(created.info), key: created.apiKey };
    } },
    'keys.revoke': async ({ params }, c) => {
      const key = own(c.get('user').id, params.id);
      await store.commits.durable(() => store.apiKeys.revoke(key.id, clock.now()));
      return undefined;
    },
    'keys.rotate': async ({ params }, c) => {
      const key = own(c.get('user').id, params.id);
      const fresh = await store.commits.durable(() => store.apiKeys.rotate(key.id, clock.now()));
      if (!fresh) throw new ApiError('not_found', `no active key ${key.id}`);
      return { ...presentKey(fresh.info), key: fresh.apiKey, replaced: key.id };
    },
  };
}
