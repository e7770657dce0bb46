import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';

/**
 * Checks recorded X traffic against X's own OpenAPI description
 * (packages/daemon/test/reference/x-api-v2.openapi.json): each request's body and query against the
 * operation's request schema and parameters, each response against the schema of its
 * status (or `default`) for its content type. $refs resolve inside the document.
 */

/**
 * X's own description, copied into the repository (its source and licence:
 * packages/daemon/test/reference/README.md) so a clone tests on its own.
 */
const SPEC_PATH = new URL('../../reference/x-api-v2.openapi.json', import.meta.url);

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown; $ref?: string; explode?: boolean }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

type Spec = { paths: Record<string, Record<string, Operation>>; components: { parameters: Record<string, { name: string; in: string; schema: unknown }> } };

let loaded: { spec: Spec; ajv: Ajv } | null = null;
const compiled = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  if (!existsSync(SPEC_PATH)) throw new Error(`X's OpenAPI description is missing at ${SPEC_PATH.pathname}: it belongs in the repository (see packages/daemon/test/reference/README.md)`);
  const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Spec;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'x-api.json', components: (spec as unknown as { components: unknown }).components }, 'x-api.json');
  loaded = { spec, ajv };
  return loaded;
}

/** Rewrites the document's local refs so they resolve against the registered components. */
function schemaFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    const rewritten = JSON.parse(key.replace(/"#\/components\//g, '"x-api.json#/components/')) as object;
    fn = load().ajv.compile(rewritten);
    compiled.set(key, fn);
  }
  return fn;
}

function findOperation(method: string, path: string): { template: string; op: Operation } | null {
  const { spec } = load();
  const exact = spec.paths[path]?.[method.toLowerCase()];
  if (exact) return { template: path, op: exact };
  for (const [template, ops] of Object.entries(spec.paths)) {
    const re = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$');
    if (re.test(path) && ops[method.toLowerCase()]) return { template, op: ops[method.toLowerCase()] as Operation };
  }
  return null;
}

const errorsOf = (fn: ValidateFunction) => JSON.stringify(fn.errors?.slice(0, 5));

/** Problems found in one recorded exchange (empty when it agrees with the spec). */
export function checkExchange(r: RecordedRequest): string[] {
  const found = findOperation(r.method, r.path);
  if (!found) return [`${r.method} ${r.path}: not an operation of the X API v2 description`];
  const { op, template } = found;
  const problems: string[] = [];
  const where = `${r.method} ${template}`;
  const { spec } = load();

  for (const p0 of op.parameters ?? []) {
    const p = p0.$ref ? spec.components.parameters[p0.$ref.split('/').pop() as string]! : p0;
    if (p.in !== 'query') continue;
    const raw = r.query[p.name];
    if (raw === undefined) {
      if ((p as { required?: boolean }).required) problems.push(`${where}: query parameter ${p.name} is required`);
      continue;
    }
    const schema = p.schema as { type?: string };
    const value = schema.type === 'array' ? raw.split(',') : schema.type === 'integer' ? Number(raw) : raw;
    const fn = schemaFor(p.schema);
    if (!fn(value)) problems.push(`${where}: query ${p.name}=${raw}: ${errorsOf(fn)}`);
  }
  for (const name of Object.keys(r.query)) {
    // The guides' and clients' name for the description's post.fields (docs/reference/platforms.md
    // §12.3.6; twitter-api-v2 sends it): known, its values those of the guides (author_id, …).
    if (name === 'tweet.fields' && (op.parameters ?? []).some((p0) => p0.$ref?.endsWith('/PostFieldsParameter'))) continue;
    const known = (op.parameters ?? []).some((p0) => (p0.$ref ? spec.components.parameters[p0.$ref.split('/').pop() as string]!.name : p0.name) === name);
    if (!known) problems.push(`${where}: unknown query parameter ${name}`);
  }

  if (op.requestBody && r.method !== 'GET') {
    const type = (r.contentType ?? '').split(';')[0]!.trim();
    const media = op.requestBody.content[type];
    if (!media) problems.push(`${where}: request content type ${type || '(none)'} is not one of ${Object.keys(op.requestBody.content).join(', ')}`);
    else {
      let body = r.body;
      if (type === 'multipart/form-data' && body && typeof body === 'object') {
        body = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([k, v]) => [k, k === 'segment_index' ? Number(v) : v]));
      }
      const fn = schemaFor(media.schema);
      if (!fn(body)) problems.push(`${where}: request body ${JSON.stringify(body).slice(0, 200)}: ${errorsOf(fn)}`);
    }
  }

  if (r.status > 0) {
    const response = op.responses[String(r.status)] ?? op.responses.default;
    if (!response) problems.push(`${where}: status ${r.status} is not described`);
    else if (response.content) {
      const type = (r.responseHeaders['content-type'] ?? '').split(';')[0]!.trim();
      const media = response.content[type];
      if (!media) problems.push(`${where}: response content type ${type} (status ${r.status}) is not one of ${Object.keys(response.content).join(', ')}`);
      else {
        const fn = schemaFor(media.schema);
        if (!fn(r.responseBody)) problems.push(`${where}: response ${r.status} ${JSON.stringify(r.responseBody).slice(0, 200)}: ${errorsOf(fn)}`);
      }
    }
  }
  return problems;
}

/** Every exchange with X v2 API paths (OAuth endpoints, which the description leaves out, are skipped). */
export function checkTraffic(requests: RecordedRequest[]): string[] {
  return requests.filter((r) => r.path.startsWith('/2/') && !r.path.startsWith('/2/oauth2/')).flatMap(checkExchange);
}
