import { formatInstant } from '@socialpub/core';
import { Hono } from 'hono';
import type { ApiKeyInfo } from '../../store/api-keys';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { rateClass } from '../middleware/rate-limit';
import { ApiError, invalid } from '../errors';
import { readJsonObject } from '../json-body';

const MAX_NAME = 100;

const presentKey = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: formatInstant(k.createdAt),
  last_used_at: k.lastUsedAt === null ? null : formatInstant(k.lastUsedAt),
});

/**
 * The caller's API keys (extension, for the dashboard's Settings): list (never a secret),
 * create and rotate (the full key only in that answer; only its hash is stored), revoke.
 * Another user's key is not found.
 */
export function keysRoutes({ store, clock }: Pick<RouteDeps, 'store' | 'clock'>) {
  const own = (userId: string, id: string) => {
    const key = store.apiKeys.get(id);
    if (!key || key.userId !== userId || key.revokedAt !== null) throw new ApiError('not_found', `no active key ${id}`);
    return key;
  };
  return new Hono<AppEnv>()
    .get('/', rateClass('account'), (c) => {
      const keys = store.apiKeys.list(c.get('user').id).filter((k) => k.revokedAt === null);
      return c.json({ data: keys.map(presentKey) }, 200);
    })
    .post('/', rateClass('account'), async (c) => {
      const body = await readJsonObject(c, { allowEmpty: true });
      const details = Object.keys(body)
        .filter((k) => k !== 'name')
        .map((k) => ({ path: k, message: 'unknown field' }));
      const name = body.name;
      if (name !== undefined && name !== null && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME)) {
        details.push({ path: 'name', message: `must be a non-empty string of at most ${MAX_NAME} characters` });
      }
      if (details.length > 0) throw invalid(details);
      const userId = c.get('user').id;
      const created = await store.commits.durable(() => store.apiKeys.create(userId, typeof name === 'string' ? name.trim() : null, clock.now()));
      return c.json({ ...presentKey(created.info), key: created.apiKey }, 201);
    })
    .delete('/:id', rateClass('account'), async (c) => {
      const key = own(c.get('user').id, c.req.param('id'));
      await store.commits.durable(() => store.apiKeys.revoke(key.id, clock.now()));
      return c.body(null, 204);
    })
    .post('/:id/rotate', rateClass('account'), async (c) => {
      const key = own(c.get('user').id, c.req.param('id'));
      const fresh = await store.commits.durable(() => store.apiKeys.rotate(key.id, clock.now()));
      if (!fresh) throw new ApiError('not_found', `no active key ${key.id}`);
      return c.json({ ...presentKey(fresh.info), key: fresh.apiKey, replaced: key.id }, 201);
    });
}
