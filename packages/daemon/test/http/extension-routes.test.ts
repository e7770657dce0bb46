import { randomBytes } from 'node:crypto';
import { API_PREFIX, EXTENSION_ROUTES, ROUTES, type RouteDecl } from '@socialpub/core';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../src/http/env';
import { ApiError } from '../../src/http/errors';
import { openApiDocument } from '../../src/http/openapi';
import { honoPath, mountRoute } from '../../src/http/route-table/mount-route';
import { operationOf } from '../../src/http/route-table/openapi-paths';
import { ManualClock } from '../../src/util/clock';
import { openTestDatabase } from '../support/store-dialects';
import { createStore } from '../../src/store/store';
import { SecretBox } from '../../src/util/secrets';
import { ServiceError } from '../../src/util/service-error';
import { API, errorOf, harness } from './harness';

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };
const doc = () => openApiDocument() as unknown as Doc;

describe('the extensions, declared once in core (routes/extension-routes.ts)', () => {
  it('are part of ROUTES, each mounted on the app with its method and path', () => {
    const h = harness();
    const served = new Set(h.app.routes.map((r) => `${r.method} ${r.path}`));
    const names = Object.keys(EXTENSION_ROUTES);
    expect(names.length).toBe(41);
    for (const name of names) {
      const route = EXTENSION_ROUTES[name as keyof typeof EXTENSION_ROUTES] as RouteDecl;
      expect(ROUTES[name as keyof typeof ROUTES]).toBe(route);
      expect(served.has(`${route.method} ${honoPath(route)}`), `${name}: ${route.method} ${honoPath(route)}`).toBe(true);
    }
  });

  it('have exactly the generated operation in the OpenAPI document (no hand-written entry left over them)', () => {
    const paths = doc().paths;
    for (const route of Object.values(EXTENSION_ROUTES) as RouteDecl[]) {
      expect(paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase()], route.name).toEqual(operationOf(route));
    }
  });

  it('describe the SSE stream by the Event schema, with Last-Event-ID, and a 204 without content', () => {
    const paths = doc().paths;
    const events = paths[`${API_PREFIX}/events`]!.get as { parameters: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };
    expect(Object.keys(events.responses[200]!.content!)).toEqual(['text/event-stream']);
    expect(events.responses[200]!.content!['text/event-stream']!.schema['x-sse-data']).toEqual({ $ref: '#/components/schemas/Event' });
    expect(events.parameters.map((p) => `${p.in} ${p.name}`)).toEqual(['query types', 'query job_id', 'query since', 'query with_post', 'header Last-Event-ID']);
    const revoke = paths[`${API_PREFIX}/keys/{id}`]!.delete as { parameters: { name: string }[]; responses: Record<string, { content?: unknown; description: string }> };
    expect(revoke.responses[204]).toEqual({ description: 'Done (no body)', headers: expect.any(Object) });
    expect(revoke.parameters.map((p) => p.name)).toEqual(['id', 'X-CSRF-Token']);
    // A public route: no security, and no rate-limit headers (it has no class).
    const read = paths[`${API_PREFIX}/review-links/public/{token}`]!.get as { security: unknown[]; responses: Record<string, { headers?: unknown }> };
    expect(read.security).toEqual([]);
    expect(read.responses[200]!.headers).toBeUndefined();
  });

  it('answer a declared 204 without a body, and the public decision route over 16 KB with its own 413', async () => {
    const h = harness();
    const created = await h.call('POST', `${API}/keys`, { body: { name: 'spare' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const revoked = await h.call('DELETE', `${API}/keys/${id}`);
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe('');
    const big = await h.app.request(`${API}/review-links/public/whatever/decisions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ job_id: 'job_1', decision: 'approve', comment: 'x'.repeat(17 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(await errorOf(big)).toMatchObject({ code: 'payload_too_large', message: 'a decision body is at most 16 KB' });
  });
});

describe('mountRoute: the additions for the extensions', () => {
  const schemas = { Nothing: z.undefined(), Thing: z.object({ ok: z.boolean() }) };
  // Keys of this test's own schema map (not core's SCHEMAS), so the declarations are loosely typed.
  const route = (over: Record<string, unknown>): RouteDecl =>
    ({ name: 't.x', method: 'DELETE', path: '/t', auth: 'public', bodyKind: 'none', responses: { 204: { schema: 'Nothing', kind: 'none' } }, errors: [], operationId: 'x', summary: 'x', tags: [], ...over }) as unknown as RouteDecl;
  const app = (decl: RouteDecl, answer: unknown) => {
    const a = new Hono<AppEnv>();
    a.onError((e, c) => (e instanceof ServiceError ? c.json(ApiError.from(e).body('r'), ApiError.from(e).status as 400) : c.json({ bug: e.message }, 500)));
    const db = openTestDatabase(':memory:');
    const clock = new ManualClock(0);
    mountRoute(a, decl, () => answer as never, { store: createStore(db, { clock, secrets: new SecretBox(randomBytes(32)) }), clock, validateResponses: true, schemas: schemas as never });
    return a;
  };

  it('fails loudly when a route declared without a body answers one', async () => {
    const ok = await app(route({}), undefined).request(`${API}/t`, { method: 'DELETE' });
    expect(ok.status).toBe(204);
    const bad = await app(route({}), { ok: true }).request(`${API}/t`, { method: 'DELETE' });
    expect(bad.status).toBe(500);
    expect(((await bad.json()) as { bug: string }).bug).toBe('t.x answered 204 with a body, which it declares without one');
  });

  it("applies a route's own body limit with its message, and lets a body under it through", async () => {
    const decl = route({ method: 'POST', bodyKind: 'json', body: { schema: 'Thing', required: true }, bodyLimit: { bytes: 64, message: 'at most 64 bytes here' }, responses: { 200: { schema: 'Thing' } } });
    const small = await app(decl, { ok: true }).request(`${API}/t`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ok: true }) });
    expect(small.status).toBe(200);
    const big = await app(decl, { ok: true }).request(`${API}/t`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ok: true, pad: 'x'.repeat(100) }) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toBe('at most 64 bytes here');
  });
});
