import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';

/**
 * Checks recorded Pinterest traffic against Pinterest's own OpenAPI description of REST
 * API v5 (test/reference/pinterest-v5.openapi.json, copied unchanged from
 * github.com/pinterest/api-description, MIT): each request's path, query parameters and
 * body against the operation, and each response against the schema of its status. The
 * description's paths are relative to its server (`https://api.pinterest.com/v5`).
 */
const SPEC_PATH = new URL('../../reference/pinterest-v5.openapi.json', import.meta.url);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  $ref?: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Spec = { paths: Record<string, Record<string, Operation> & { parameters?: Parameter[] }>; components: { parameters: Record<string, Parameter> } };

let loaded: { spec: Spec; ajv: Ajv } | null = null;
const compiled = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  const spec = withNullTypes(JSON.parse(readFileSync(SPEC_PATH, 'utf8'))) as Spec;
  // OpenAPI 3.0's `nullable` is understood by Ajv; `discriminator` is left to the oneOf it sits beside.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'pinterest.json', components: (spec as unknown as { components: unknown }).components }, 'pinterest.json');
  loaded = { spec, ajv };
  return loaded;
}

/**
 * OpenAPI 3.0 writes "may be null" as `nullable: true`. Ajv reads it beside a `type`; where
 * the description puts it beside an `allOf` alone, it becomes `anyOf: [that, null]`.
 */
function withNullTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullTypes);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = withNullTypes(v);
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _n, description, ...rest } = out;
    return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

function schemaFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    fn = load().ajv.compile(JSON.parse(key.replace(/"#\/components\//g, '"pinterest.json#/components/')) as object);
    compiled.set(key, fn);
  }
  return fn;
}

function findOperation(method: string, path: string): { template: string; op: Operation; shared: Parameter[] } | null {
  const { spec } = load();
  const m = method.toLowerCase();
  for (const [template, ops] of Object.entries(spec.paths)) {
    const re = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+') + '$');
    if (re.test(path) && ops[m]) return { template, op: ops[m] as Operation, shared: ops.parameters ?? [] };
  }
  return null;
}

const errorsOf = (fn: ValidateFunction) => JSON.stringify(fn.errors?.slice(0, 5));
const resolve = (p: Parameter): Parameter => (p.$ref ? load().spec.components.parameters[p.$ref.split('/').pop() as string]! : p);

/** Problems found in one recorded exchange with api.pinterest.com (empty when it agrees with the description). */
export function checkExchange(r: RecordedRequest): string[] {
  if (!r.path.startsWith('/v5/')) return [`${r.method} ${r.path}: not under /v5, the description's server`];
  const path = r.path.slice('/v5'.length);
  const found = findOperation(r.method, path);
  if (!found) return [`${r.method} ${r.path}: not an operation of Pinterest's v5 description`];
  const { op, template } = found;
  const where = `${r.method} ${template}`;
  const problems: string[] = [];
  const params = [...found.shared, ...(op.parameters ?? [])].map(resolve);

  for (const p of params.filter((x) => x.in === 'query')) {
    const raw = r.query[p.name];
    if (raw === undefined) {
      if (p.required) problems.push(`${where}: query parameter ${p.name} is required`);
      continue;
    }
    const schema = p.schema as { type?: string };
    const value = schema.type === 'array' ? raw.split(',') : schema.type === 'integer' ? Number(raw) : schema.type === 'boolean' ? raw === 'true' : raw;
    const fn = schemaFor(p.schema);
    if (!fn(value)) problems.push(`${where}: query ${p.name}=${raw}: ${errorsOf(fn)}`);
  }
  for (const name of Object.keys(r.query)) {
    if (!params.some((p) => p.in === 'query' && p.name === name)) problems.push(`${where}: unknown query parameter ${name}`);
  }
  for (const p of params.filter((x) => x.in === 'path')) {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
    const i = names.indexOf(p.name);
    if (i < 0) continue;
    const segs = path.split('/');
    const tsegs = template.split('/');
    const value = segs[tsegs.indexOf(`{${p.name}}`)];
    const fn = schemaFor(p.schema);
    if (!fn(decodeURIComponent(value ?? ''))) problems.push(`${where}: path ${p.name}=${value}: ${errorsOf(fn)}`);
  }

  if (op.requestBody && r.method !== 'GET') {
    const type = (r.contentType ?? '').split(';')[0]!.trim();
    const media = op.requestBody.content[type];
    if (!media) problems.push(`${where}: request content type ${type || '(none)'} is not one of ${Object.keys(op.requestBody.content).join(', ')}`);
    else {
      const fn = schemaFor(media.schema);
      if (!fn(r.body)) problems.push(`${where}: request body ${JSON.stringify(r.body).slice(0, 300)}: ${errorsOf(fn)}`);
    }
  } else if (!op.requestBody && r.body !== undefined && r.body !== null && r.method !== 'GET' && r.method !== 'DELETE') {
    problems.push(`${where}: a body was sent to an operation that takes none`);
  }

  if (r.status > 0) {
    const response = op.responses[String(r.status)] ?? op.responses.default;
    if (!response) problems.push(`${where}: status ${r.status} is not described`);
    else if (response.content && r.status !== 204) {
      const type = (r.responseHeaders['content-type'] ?? '').split(';')[0]!.trim();
      const media = response.content[type];
      if (!media) problems.push(`${where}: response content type ${type} (status ${r.status}) is not one of ${Object.keys(response.content).join(', ')}`);
      else {
        const fn = schemaFor(media.schema);
        if (!fn(r.responseBody)) problems.push(`${where}: response ${r.status} ${JSON.stringify(r.responseBody).slice(0, 300)}: ${errorsOf(fn)}`);
      }
    }
  }
  return problems;
}

/** Every exchange with api.pinterest.com's /v5 API (the upload URL, S3's in real life, is not part of it). */
export function checkTraffic(requests: RecordedRequest[]): string[] {
  return requests.filter((r) => r.host === 'api.pinterest.com' && r.path.startsWith('/v5/')).flatMap(checkExchange);
}
