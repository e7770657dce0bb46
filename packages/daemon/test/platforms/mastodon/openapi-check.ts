import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RecordedRequest } from '../../../src/platforms/shared/sim/simulator-recorder';

/**
 * Checks recorded Mastodon traffic against the community OpenAPI description of Mastodon's
 * API (mastodon.openapi.json beside this file; see README.md for its source): each
 * request's query and body against the operation's parameters and request schema, each
 * answer against the schema of its status for its content type, and the X-RateLimit-*
 * headers the description declares. $refs resolve inside the document.
 *
 * Two readings of the description, said here once:
 * - POST /api/v1/statuses takes `oneOf` TextStatus, MediaStatus, PollStatus, which
 *   overlap (a status with text and media is both a TextStatus and a MediaStatus), so a
 *   `oneOf` is read as `anyOf`.
 * - The Idempotency-Key header is described with `type: object` (it is a string), so
 *   header parameters are not checked against their schemas.
 */

const SPEC_PATH = new URL('./mastodon.openapi.json', import.meta.url);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string | string[] };
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}

type Spec = { paths: Record<string, Record<string, Operation>>; components: unknown };

let loaded: { spec: Spec; ajv: Ajv } | null = null;
const compiled = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Spec;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'mastodon.json', components: JSON.parse(JSON.stringify(spec.components).replace(/"oneOf":/g, '"anyOf":').replace(/"#\/components\//g, '"mastodon.json#/components/')) }, 'mastodon.json');
  loaded = { spec, ajv };
  return loaded;
}

function schemaFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    const rewritten = JSON.parse(key.replace(/"oneOf":/g, '"anyOf":').replace(/"#\/components\//g, '"mastodon.json#/components/')) as object;
    fn = load().ajv.compile(rewritten);
    compiled.set(key, fn);
  }
  return fn;
}

function findOperation(method: string, path: string): { template: string; op: Operation } | null {
  const { spec } = load();
  const m = method.toLowerCase();
  const exact = spec.paths[path]?.[m];
  if (exact) return { template: path, op: exact };
  for (const [template, ops] of Object.entries(spec.paths)) {
    const re = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$');
    if (re.test(path) && ops[m]) return { template, op: ops[m] as Operation };
  }
  return null;
}

const errorsOf = (fn: ValidateFunction) => JSON.stringify(fn.errors?.slice(0, 5));

function typed(raw: string, schema: Parameter['schema']): unknown {
  const t = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (t === 'integer' || t === 'number') return Number(raw);
  if (t === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (t === 'array') return raw.split(',');
  return raw;
}

/** Problems found in one recorded exchange (empty when it agrees with the description). */
export function checkExchange(r: RecordedRequest): string[] {
  const found = findOperation(r.method, r.path);
  if (!found) return [`${r.method} ${r.path}: not an operation of the Mastodon API description`];
  const { op, template } = found;
  const where = `${r.method} ${template}`;
  const problems: string[] = [];

  const params = op.parameters ?? [];
  for (const p of params) {
    if (p.in !== 'query') continue;
    const raw = r.query[p.name];
    if (raw === undefined) {
      if (p.required) problems.push(`${where}: query parameter ${p.name} is required`);
      continue;
    }
    const fn = schemaFor(p.schema ?? {});
    if (!fn(typed(raw, p.schema))) problems.push(`${where}: query ${p.name}=${raw}: ${errorsOf(fn)}`);
  }
  for (const name of Object.keys(r.query)) {
    if (!params.some((p) => p.in === 'query' && p.name === name)) problems.push(`${where}: unknown query parameter ${name}`);
  }

  if (op.requestBody && r.method !== 'GET' && r.method !== 'DELETE') {
    const type = (r.contentType ?? '').split(';')[0]!.trim();
    const media = op.requestBody.content[type];
    if (!media) problems.push(`${where}: request content type ${type || '(none)'} is not one of ${Object.keys(op.requestBody.content).join(', ')}`);
    else {
      const fn = schemaFor(media.schema);
      if (!fn(r.body)) problems.push(`${where}: request body ${JSON.stringify(r.body).slice(0, 300)}: ${errorsOf(fn)}`);
    }
  }

  // The authorization endpoint answers a consent with a redirect, which the description leaves out (RFC 6749 §4.1.2).
  if (r.status > 0 && !(template === '/oauth/authorize' && r.status === 302)) {
    const response = op.responses[String(r.status)];
    if (!response) problems.push(`${where}: status ${r.status} is not described`);
    else {
      for (const h of Object.keys(response.headers ?? {})) {
        if (/^x-ratelimit-/i.test(h) && r.responseHeaders[h.toLowerCase()] === undefined) problems.push(`${where}: answer ${r.status} lacks the ${h} header`);
      }
      if (response.content) {
        const type = (r.responseHeaders['content-type'] ?? '').split(';')[0]!.trim();
        const media = response.content[type];
        if (!media) problems.push(`${where}: response content type ${type} (status ${r.status}) is not one of ${Object.keys(response.content).join(', ')}`);
        else {
          const fn = schemaFor(media.schema);
          if (!fn(r.responseBody)) problems.push(`${where}: response ${r.status} ${JSON.stringify(r.responseBody).slice(0, 300)}: ${errorsOf(fn)}`);
        }
      }
    }
  }
  return problems;
}

/** Every exchange (the API and the OAuth endpoints alike). */
export function checkTraffic(requests: RecordedRequest[]): string[] {
  return requests.flatMap(checkExchange);
}
