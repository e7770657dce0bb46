import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RecordedRequest } from '../../src/platforms/shared/sim/simulator-recorder';

/**
 * Checks recorded simulator traffic against a platform's OpenAPI description: each
 * request's query (and, where asked, path) parameters and body against the operation,
 * each answer against the schema of its status (or `default`) for its content type, and
 * the X-RateLimit-* headers the description declares. $refs resolve inside the document.
 * Each platform's test/platforms/<name>/openapi-check.ts says which description and
 * which readings of it apply.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string | string[] };
  $ref?: string;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}

type Spec = { paths: Record<string, Record<string, Operation>>; components?: { parameters?: Record<string, Parameter> } };

export interface OpenApiCheckOptions {
  /** The description, as in messages ("the Mastodon API description"). */
  name: string;
  /** The description's file, in the repository. */
  spec: URL;
  /** Where the description's source and licence are said (named when the file is missing). */
  source: string;
  /** Which recorded exchanges the description covers. */
  covers: (r: RecordedRequest) => boolean;
  /** A reading of the description applied once on loading it. */
  prepare?: (spec: unknown) => unknown;
  /** The server's path prefix the description's paths are relative to (e.g. `/v5`). */
  basePath?: string;
  /** Query parameters the description does not list but the platform accepts. */
  alsoKnownQuery?: (name: string, op: Operation) => boolean;
  /** Check path parameters against their schemas too. */
  checkPathParameters?: boolean;
  /** Brings a request body to the shape its schema describes (e.g. multipart fields, all strings). */
  requestBody?: (contentType: string, body: unknown) => unknown;
  /** Report a body sent to an operation that takes none. */
  rejectUnexpectedBody?: boolean;
  /** Answers the description leaves out on purpose. */
  undescribedAnswer?: (template: string, status: number) => boolean;
}

export interface OpenApiChecker {
  /** Problems found in one recorded exchange (empty when it agrees with the description). */
  checkExchange(r: RecordedRequest): string[];
  /** Problems found in every exchange the description covers. */
  checkTraffic(requests: RecordedRequest[]): string[];
}

const COMPONENTS_ID = 'openapi.json';

const errorsOf = (fn: ValidateFunction) => JSON.stringify(fn.errors?.slice(0, 5));

/** A query value as its schema's type reads it (a value of the wrong shape stays a string, and fails). */
function typed(raw: string, schema: Parameter['schema']): unknown {
  const t = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (t === 'integer' || t === 'number') return Number(raw);
  if (t === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (t === 'array') return raw.split(',');
  return raw;
}

export function createOpenApiChecker(options: OpenApiCheckOptions): OpenApiChecker {
  let loaded: { spec: Spec; ajv: Ajv } | null = null;
  const compiled = new Map<string, ValidateFunction>();

  function load() {
    if (loaded) return loaded;
    if (!existsSync(options.spec)) throw new Error(`${options.name} is missing at ${options.spec.pathname}: it belongs in the repository (see ${options.source})`);
    const raw = JSON.parse(readFileSync(options.spec, 'utf8')) as unknown;
    const spec = (options.prepare ? options.prepare(raw) : raw) as Spec;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: COMPONENTS_ID, components: spec.components }, COMPONENTS_ID);
    loaded = { spec, ajv };
    return loaded;
  }

  /** Rewrites the document's local refs so they resolve against the registered components. */
  function schemaFor(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema ?? {});
    let fn = compiled.get(key);
    if (!fn) {
      fn = load().ajv.compile(JSON.parse(key.replace(/"#\/components\//g, `"${COMPONENTS_ID}#/components/`)) as object);
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

  const resolve = (p: Parameter): Parameter => (p.$ref ? (load().spec.components?.parameters?.[p.$ref.split('/').pop() as string] ?? p) : p);

  function checkExchange(r: RecordedRequest): string[] {
    const base = options.basePath ?? '';
    if (base && !r.path.startsWith(`${base}/`)) return [`${r.method} ${r.path}: not under ${base}, the description's server`];
    const path = r.path.slice(base.length);
    const found = findOperation(r.method, path);
    if (!found) return [`${r.method} ${r.path}: not an operation of ${options.name}`];
    const { op, template } = found;
    const where = `${r.method} ${template}`;
    const problems: string[] = [];
    const params = (op.parameters ?? []).map(resolve);

    for (const p of params.filter((x) => x.in === 'query')) {
      const raw = r.query[p.name];
      if (raw === undefined) {
        if (p.required) problems.push(`${where}: query parameter ${p.name} is required`);
        continue;
      }
      const fn = schemaFor(p.schema);
      if (!fn(typed(raw, p.schema))) problems.push(`${where}: query ${p.name}=${raw}: ${errorsOf(fn)}`);
    }
    for (const name of Object.keys(r.query)) {
      if (options.alsoKnownQuery?.(name, op)) continue;
      if (!params.some((p) => p.in === 'query' && p.name === name)) problems.push(`${where}: unknown query parameter ${name}`);
    }
    if (options.checkPathParameters) {
      const segments = path.split('/');
      const templateSegments = template.split('/');
      for (const p of params.filter((x) => x.in === 'path')) {
        const i = templateSegments.indexOf(`{${p.name}}`);
        if (i < 0) continue;
        const value = segments[i];
        const fn = schemaFor(p.schema);
        if (!fn(decodeURIComponent(value ?? ''))) problems.push(`${where}: path ${p.name}=${value}: ${errorsOf(fn)}`);
      }
    }

    const takesBody = r.method !== 'GET' && r.method !== 'DELETE';
    if (op.requestBody && takesBody) {
      const type = (r.contentType ?? '').split(';')[0]!.trim();
      const media = op.requestBody.content[type];
      if (!media) problems.push(`${where}: request content type ${type || '(none)'} is not one of ${Object.keys(op.requestBody.content).join(', ')}`);
      else {
        const body = options.requestBody ? options.requestBody(type, r.body) : r.body;
        const fn = schemaFor(media.schema);
        if (!fn(body)) problems.push(`${where}: request body ${JSON.stringify(body).slice(0, 300)}: ${errorsOf(fn)}`);
      }
    } else if (!op.requestBody && options.rejectUnexpectedBody && takesBody && r.body !== undefined && r.body !== null) {
      problems.push(`${where}: a body was sent to an operation that takes none`);
    }

    if (r.status > 0 && !options.undescribedAnswer?.(template, r.status)) {
      const response = op.responses[String(r.status)] ?? op.responses.default;
      if (!response) problems.push(`${where}: status ${r.status} is not described`);
      else {
        for (const h of Object.keys(response.headers ?? {})) {
          if (/^x-ratelimit-/i.test(h) && r.responseHeaders[h.toLowerCase()] === undefined) problems.push(`${where}: answer ${r.status} lacks the ${h} header`);
        }
        if (response.content && r.status !== 204) {
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

  return { checkExchange, checkTraffic: (requests) => requests.filter(options.covers).flatMap(checkExchange) };
}
