import { readFileSync } from 'node:fs';
import { KEY_SCOPES, ROUTES, type RouteDecl } from '@socialpub/core';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/http/env';
import { mountRoute } from '../../src/http/route-table/mount-route';
import { operationOf } from '../../src/http/route-table/openapi-paths';
import { SCOPE_TABLE_END, SCOPE_TABLE_START, scopeTable } from '../../src/http/route-table/scope-table';
import { createIdempotencyRepository } from '../../src/store/idempotency';
import { openDatabase } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';

const routes: RouteDecl[] = Object.values(ROUTES);
const keyed = routes.filter((r) => r.auth === 'key');

describe('the key scope of each route, declared in the route table', () => {
  it('is declared by every keyed route and by no public one', () => {
    expect(keyed.filter((r) => !r.scope || !(KEY_SCOPES as readonly string[]).includes(r.scope)).map((r) => r.name)).toEqual([]);
    expect(routes.filter((r) => r.auth === 'public' && r.scope).map((r) => r.name)).toEqual([]);
  });

  it('is read only for what changes nothing: a GET or a POST declared readOnly', () => {
    const readButWrites = keyed.filter((r) => r.scope === 'read' && r.method !== 'GET' && !(r.method === 'POST' && r.readOnly));
    expect(readButWrites.map((r) => r.name)).toEqual([]);
    expect(keyed.filter((r) => r.scope === 'read' && r.method !== 'GET').map((r) => r.name).sort()).toEqual(['auth.validate', 'content.validate']);
  });

  it('keeps approving, taking down and account changes for full keys, and publishing for agent keys', () => {
    const scopeOf = (name: keyof typeof ROUTES) => (ROUTES[name] as RouteDecl).scope;
    expect(['scheduled.approve', 'scheduled.reject', 'scheduled.unpublish', 'keys.list', 'keys.create', 'settings.update', 'webhooks.create', 'connections.sandbox', 'reviewLinks.create'].map((n) => scopeOf(n as keyof typeof ROUTES))).toEqual(Array(9).fill('full'));
    expect(['content.publish', 'scheduled.update', 'scheduled.cancel', 'series.cancel', 'media.prepare', 'media.upload'].map((n) => scopeOf(n as keyof typeof ROUTES))).toEqual(Array(6).fill('agent'));
  });

  it('is the table docs/api.md shows (regenerate with scripts/write-scope-table.ts)', () => {
    const doc = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8');
    const start = doc.indexOf(SCOPE_TABLE_START);
    const end = doc.indexOf(SCOPE_TABLE_END);
    expect(start).toBeGreaterThan(0);
    expect(doc.slice(start + SCOPE_TABLE_START.length, end).trim()).toBe(scopeTable());
    // One row per keyed route, with the scope its declaration names.
    expect(scopeTable().split('\n')).toHaveLength(keyed.length + 2);
    expect(scopeTable()).toContain('| `POST /content/scheduled/approve` | `full` | yes | 403 | 403 |');
    expect(scopeTable()).toContain('| `POST /content/publish` | `agent` | yes | yes | 403 |');
  });

  it("reaches the OpenAPI operation: x-required-scope and a 403 naming insufficient_scope above read", () => {
    const approve = operationOf(ROUTES['scheduled.approve']) as { 'x-required-scope': string; responses: Record<string, { description: string }> };
    expect(approve['x-required-scope']).toBe('full');
    expect(approve.responses['403']!.description).toContain('it needs a full key (`insufficient_scope`)');
    const settings = operationOf(ROUTES['settings.update']) as { responses: Record<string, { description: string }> };
    expect(settings.responses['403']!.description).toBe('A key whose scope does not reach this route: it needs a full key (`insufficient_scope`).');
    const list = operationOf(ROUTES['settings.get']) as { 'x-required-scope': string; responses: Record<string, unknown> };
    expect(list['x-required-scope']).toBe('read');
    expect(list.responses['403']).toBeUndefined();
  });

  it('must be declared: mounting a keyed route without one fails', () => {
    const { scope: _scope, ...bare } = ROUTES['settings.get'];
    const options = { store: { idempotency: createIdempotencyRepository(openDatabase(':memory:')) }, clock: new ManualClock(0) };
    expect(() => mountRoute(new Hono<AppEnv>(), bare as RouteDecl, () => ({ success: true }) as never, options)).toThrow('settings.get needs a key but declares no key scope');
  });
});
