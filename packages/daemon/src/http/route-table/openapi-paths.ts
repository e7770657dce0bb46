import { API_PREFIX, SCHEMAS, type RouteDecl } from '@socialpub/core';
import { z } from 'zod';
import { CSRF, ERR, IDEMPOTENCY_KEY, SOURCE, err, json, limited, ref, type Json } from '../openapi-parts';

type Schemas = Readonly<Record<string, z.ZodType>>;

/**
 * A schema as JSON Schema for the document: a `$ref` to its component when the schema is in
 * core's registry (`.meta({ id })`), else inline, with the registered schemas inside it
 * referring to their components (as the components refer to each other).
 */
export function schemaJson(schema: z.ZodType): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return ref(id);
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  const { $schema: _s, $defs: _d, ...rest } = out;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** Path or query parameters from a zod object's properties, with the route's descriptions. */
function parameters(schema: z.ZodType, where: 'path' | 'query', descriptions: Readonly<Record<string, string>> | undefined): Json[] {
  type Obj = { properties?: Record<string, Json>; required?: string[]; $ref?: string; $defs?: Record<string, Obj> };
  const whole = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Obj;
  // A schema with a registry id (EventsQuery) comes out as a $ref to its definition: read that.
  const out = whole.$ref?.startsWith('#/$defs/') ? (whole.$defs?.[whole.$ref.slice('#/$defs/'.length)] ?? whole) : whole;
  const required = new Set(out.required ?? []);
  return Object.entries(out.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const text = descriptions?.[name] ?? (typeof description === 'string' ? description : undefined);
    const fixed = JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
    return { name, in: where, required: where === 'path' || required.has(name), ...(text ? { description: text } : {}), schema: fixed };
  });
}

const schemaAt = (schemas: Schemas, key: string) => {
  const schema = schemas[key];
  if (!schema) throw new Error(`no schema "${key}" in the schema map`);
  return schema;
};

/** The OpenAPI operation of one declaration. */
export function operationOf(route: RouteDecl, schemas: Schemas = SCHEMAS as Schemas): Json {
  const params: Json[] = [];
  if (route.params) params.push(...parameters(schemaAt(schemas, route.params), 'path', route.paramDescriptions));
  if (route.query) params.push(...parameters(schemaAt(schemas, route.query), 'query', route.paramDescriptions));
  if (route.idempotent) params.push(route.idempotencyDescription ? { ...IDEMPOTENCY_KEY, description: route.idempotencyDescription } : IDEMPOTENCY_KEY);
  if (route.source) params.push(SOURCE);
  for (const [name, description] of Object.entries(route.headerParams ?? {})) params.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  if (route.csrf) params.push(CSRF);
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const keys = typeof answer.schema === 'string' ? [answer.schema] : answer.schema;
    const shapes = keys.map((k) => schemaJson(schemaAt(schemas, k)));
    const shape = shapes.length === 1 ? (shapes[0] as Json) : { oneOf: shapes };
    const description = answer.description ?? 'Success';
    const response =
      answer.kind === 'none'
        ? { description }
        : answer.kind === 'event-stream'
          ? // Server-Sent Events: the stream is text; each message's data line is one JSON value of the declared schema.
            { description, content: { 'text/event-stream': { schema: { type: 'string', description: 'Each data line is one JSON value of x-sse-data (an event message).', 'x-sse-data': shape } } } }
          : answer.kind === 'csv'
            ? { description, content: { 'text/csv': { schema: shape } } }
            : { description, content: json(shape) };
    responses[status] = route.rateClass && Number(status) < 300 ? limited(response) : response;
  }
  for (const status of route.errors) {
    const own = route.errorDescriptions?.[status];
    responses[String(status)] = own ? err(own) : ERR[status];
  }
  // A key below the route's scope is refused before the route runs (key-scopes.ts): a 403
  // every route above `read` may answer, whether or not it declares one of its own.
  if (route.scope && route.scope !== 'read') {
    const refused = `A key whose scope does not reach this route: it needs a ${route.scope} key (\`insufficient_scope\`).`;
    const own = route.errors.includes(403) ? (route.errorDescriptions?.[403] ?? ERR[403].description) : undefined;
    responses['403'] = err(own ? `${own} ${refused}` : refused);
  }
  const body =
    route.bodyKind === 'json' && route.body
      ? { requestBody: { required: route.body.required, content: json(schemaJson(schemaAt(schemas, route.body.schema))) } }
      : route.bodyKind === 'upload'
        ? { requestBody: { required: true, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } } }
        : {};
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [...route.tags],
    ...(route.auth === 'public' ? { security: [] } : {}),
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...body,
    responses,
  };
}

/** The document's paths of every declaration of `table` (OpenAPI paths: `{param}`, under the prefix unless root). */
export function routePaths(table: Readonly<Record<string, RouteDecl>>, schemas: Schemas = SCHEMAS as Schemas): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const route of Object.values(table)) {
    const path = `${route.root ? '' : API_PREFIX}${route.path}`;
    const item = (paths[path] ??= {});
    item[route.method.toLowerCase()] = operationOf(route, schemas);
  }
  return paths;
}
