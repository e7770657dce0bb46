import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ROUTES, SCHEMAS, type PlatformsResponse, type RouteResponse, type SchemaMap } from '@socialpub/core';
import { createSocialPubMcpServer, type SocialPubBackend } from '@socialpub/mcp';
import type { SocialPub } from '@socialpub/sdk';
import { Hono } from 'hono';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../src/http/env';
import { mountRoute } from '../../src/http/route-table/mount-route';
import { operationOf, routePaths } from '../../src/http/route-table/openapi-paths';
import { createIdempotencyRepository } from '../../src/store/idempotency';
import { openDatabase } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';

/**
 * Issue 24's "done when": a field added to a response schema in core reaches the daemon's
 * answer check, the OpenAPI document, the SDK's types and the MCP tool's outputSchema with
 * no other edit. The field is added here to a copy of core's schema map (the map the route
 * table's keys resolve through), and every artefact is built from the table and that map,
 * as the daemon builds them from core's own; each assertion is made against core's map too,
 * so it can fail.
 */
const route = ROUTES['platforms.list'];
const withField = { ...SCHEMAS, PlatformsResponse: SCHEMAS.PlatformsResponse.extend({ checked_at: z.string().describe('When the rules were read.') }) } as const;

const answer = { success: true as const, platforms: [] };

type Json = { properties?: Record<string, unknown>; $ref?: string };

describe('one declaration, every artefact derived from it', () => {
  it("the OpenAPI document's answer schema carries the new field", () => {
    const schemaOf = (map: Readonly<Record<string, z.ZodType>>) => {
      const op = operationOf(route, map) as { responses: Record<string, { content: Record<string, { schema: Json }> }> };
      return op.responses['200']!.content['application/json']!.schema;
    };
    expect(schemaOf(withField).properties).toHaveProperty('checked_at', { type: 'string', description: 'When the rules were read.' });
    // Core's own: a reference to the component, which has no such field.
    expect(schemaOf(SCHEMAS)).toEqual({ $ref: '#/components/schemas/PlatformsResponse' });
    const paths = routePaths({ 'platforms.list': route }, withField) as Record<string, { get: { operationId: string } }>;
    expect(paths['/api/agents/v1/platforms']!.get.operationId).toBe('listPlatforms');
  });

  it('gives each declared route the parameters of its query and path schemas, with the headers it reads', () => {
    const params = (name: keyof typeof ROUTES) => (operationOf(ROUTES[name]) as { parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown }> }).parameters ?? [];
    // A query schema with a registry id (MediaUploadQuery) is read through its reference.
    expect(params('media.upload').map((p) => [p.name, p.in, p.required])).toEqual([
      ['filename', 'query', false],
      ['Idempotency-Key', 'header', false],
    ]);
    expect(params('media.upload')[0]!.schema).toEqual({ type: 'string', maxLength: 255 });
    expect(params('media.status').map((p) => [p.name, p.in, p.required])).toEqual([['task_id', 'path', true]]);
    expect(params('content.publish').map((p) => p.name)).toEqual(['Idempotency-Key', 'X-SocialPub-Source']);
    expect(params('scheduled.cancel')).toEqual([{ name: 'job_id', in: 'query', required: true, description: 'The job (job_…).', schema: { type: 'string', minLength: 1 } }]);
  });

  it("the mounted route's answer check requires it: an answer without it fails loudly, one with it goes out", async () => {
    const serve = (map: Readonly<Record<string, z.ZodType>>, body: object) => {
      const app = new Hono<AppEnv>();
      const errors: string[] = [];
      app.onError((error, c) => {
        errors.push(error.message);
        return c.json({ success: false }, 500);
      });
      mountRoute(app, route, () => body as PlatformsResponse, {
        store: { idempotency: createIdempotencyRepository(openDatabase(':memory:')) },
        clock: new ManualClock(),
        schemas: map,
        validateResponses: true,
      });
      return { app, errors };
    };
    const without = serve(withField, answer);
    expect((await without.app.request('/api/agents/v1/platforms')).status).toBe(500);
    expect(without.errors[0]).toContain('platforms.list');
    expect(without.errors[0]).toContain('checked_at');
    const withIt = serve(withField, { ...answer, checked_at: '2026-11-26T13:00:00Z' });
    const res = await withIt.app.request('/api/agents/v1/platforms');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...answer, checked_at: '2026-11-26T13:00:00Z' });
    // Core's schema has no such field: the same answer without it passes there.
    expect((await serve(SCHEMAS, answer).app.request('/api/agents/v1/platforms')).status).toBe(200);
  });

  it("the MCP tool's outputSchema carries it", async () => {
    const outputOf = async (schemas: SchemaMap) => {
      const { server } = createSocialPubMcpServer({ backend: {} as SocialPubBackend, schemas });
      const [a, b] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'derived-from-table', version: '0' });
      await Promise.all([server.connect(a), client.connect(b)]);
      const { tools } = await client.listTools();
      await client.close();
      return tools.find((t) => t.name === 'list_platforms')?.outputSchema as Json | undefined;
    };
    expect((await outputOf(withField as unknown as SchemaMap))?.properties).toHaveProperty('checked_at');
    expect((await outputOf(SCHEMAS))?.properties).not.toHaveProperty('checked_at');
  });

  it("the SDK's type of the answer carries it (and core's does not)", () => {
    expectTypeOf<RouteResponse<typeof route, typeof withField>>().toHaveProperty('checked_at').toEqualTypeOf<string>();
    expectTypeOf<RouteResponse<typeof route>>().not.toHaveProperty('checked_at');
    // What the SDK's method resolves with is the declaration's type, derived from core's schema.
    expectTypeOf<Awaited<ReturnType<SocialPub['platforms']['list']>>>().toEqualTypeOf<RouteResponse<typeof route>>();
  });
});
