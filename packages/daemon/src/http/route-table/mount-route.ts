import { API_PREFIX, SCHEMAS, type RouteDecl, type RouteInput, type RouteResponse, type SchemaMap } from '@socialpub/core';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { AppEnv } from '../env';
import { ApiError, invalid, issuesToDetails } from '../errors';
import { readJsonObject } from '../json-body';
import { idempotency } from '../middleware/idempotency';
import { rateClass } from '../middleware/rate-limit';
import { routeScope } from '../middleware/route-scope';

/** An answer with a status other than the route's usual one (declared among its responses). */
export class RouteReply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}
export const reply = <T>(status: number, body: T) => new RouteReply(status, body);

type Answer<R extends RouteDecl, M> = RouteResponse<R, M> | RouteReply<RouteResponse<R, M>> | Response;

/**
 * A handler of a declared route: gets the parsed input, answers with the declared response
 * (its body; `reply(status, body)` for another declared status; or a Response sent as it is,
 * e.g. an idempotent replay through `c.body`, which keeps the headers set on `c`).
 */
export type ParsedHandler<R extends RouteDecl, M = SchemaMap> = (input: RouteInput<R, M>, c: Context<AppEnv>) => Answer<R, M> | Promise<Answer<R, M>>;
/**
 * A handler that reads the request itself: for a route whose parsing is a rule of its own
 * (publish's checks in order, the list's job_id first, an upload's stream). The mount still
 * applies the rate class, idempotency, the status and the response check.
 */
export interface RawHandler<R extends RouteDecl, M = SchemaMap> {
  raw: true;
  handle: (c: Context<AppEnv>) => Answer<R, M> | Promise<Answer<R, M>>;
}
export type RouteHandler<R extends RouteDecl, M = SchemaMap> = ParsedHandler<R, M> | RawHandler<R, M>;

/** The handlers of some routes of a table, by name. */
export type RouteHandlers<T extends Record<string, RouteDecl>, N extends keyof T = keyof T, M = SchemaMap> = { [K in N]: RouteHandler<T[K], M> };

export interface MountOptions {
  /** For Idempotency-Key records. */
  store: Pick<Store, 'idempotency'>;
  /** The path the app is mounted at by its parent (`app.route(under, app)`): the routes are mounted relative to it. */
  under?: string;
  clock: Clock;
  /** Parse every answer with its declared schema and fail loudly (500, logged) on a mismatch: tests and development. */
  validateResponses?: boolean;
  /** Where the declarations' schema keys resolve (default core's SCHEMAS; a test passes its own). */
  schemas?: Readonly<Record<string, z.ZodType>>;
}

/** `/media/status/{task_id}` -> `/api/agents/v1/media/status/:task_id` (or from the root). */
export const honoPath = (route: Pick<RouteDecl, 'path' | 'root'>) => `${route.root ? '' : API_PREFIX}${route.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')}`;

function schemaOf(schemas: Readonly<Record<string, z.ZodType>>, key: string): z.ZodType {
  const schema = schemas[key];
  if (!schema) throw new Error(`no schema "${key}" in the schema map`);
  return schema;
}

function parse(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
  return parsed.data;
}

/** The input of a parsed handler: path parameters, then query, then body, each checked in that order. */
async function readInput(route: RouteDecl, c: Context<AppEnv>, schemas: Readonly<Record<string, z.ZodType>>) {
  const params = route.params ? parse(schemaOf(schemas, route.params), c.req.param()) : {};
  const query = route.query ? parse(schemaOf(schemas, route.query), c.req.query()) : {};
  const body = route.bodyKind === 'json' && route.body ? parse(schemaOf(schemas, route.body.schema), await readJsonObject(c, { allowEmpty: !route.body.required })) : undefined;
  return { params, query, body };
}

/** Checks an answer against the schema(s) declared for its status; a mismatch is a bug of the daemon. */
function checkAnswer(route: RouteDecl, status: number, body: unknown, schemas: Readonly<Record<string, z.ZodType>>): void {
  const declared = route.responses[status];
  if (!declared) throw new Error(`${route.name} answered ${status}, which it does not declare`);
  if (declared.kind === 'none') {
    if (body !== null && body !== undefined) throw new Error(`${route.name} answered ${status} with a body, which it declares without one`);
    return;
  }
  const keys = typeof declared.schema === 'string' ? [declared.schema] : declared.schema;
  const failures = keys.map((key) => ({ key, result: schemaOf(schemas, key).safeParse(body) }));
  if (failures.some((f) => f.result.success)) return;
  const why = failures.map((f) => `${f.key}: ${f.result.error?.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`).join(' | ');
  throw new Error(`the answer of ${route.name} (${status}) does not match its declared schema: ${why}`);
}

/**
 * Mounts one declaration with its handler on the app: its rate class and key scope first
 * (the limiter and authentication in front of every keyed route read them there;
 * checkRateClasses refuses a keyed route without a rate class, this a keyed declaration
 * without either), Idempotency-Key for an idempotent JSON route (an upload keeps its own
 * records: its body is a stream), then the handler with the parsed input; the answer goes
 * out as JSON with the declared status.
 */
export function mountRoute<R extends RouteDecl, M = SchemaMap>(app: Hono<AppEnv>, route: R, handler: RouteHandler<R, M>, options: MountOptions): void {
  const schemas = options.schemas ?? (SCHEMAS as Readonly<Record<string, z.ZodType>>);
  const statuses = Object.keys(route.responses).map(Number);
  const usual = statuses[0];
  if (usual === undefined) throw new Error(`${route.name} declares no response`);
  const chain: MiddlewareHandler<AppEnv>[] = [];
  if (route.auth === 'key') {
    if (!route.rateClass) throw new Error(`${route.name} needs a key but declares no rate class`);
    if (!route.scope) throw new Error(`${route.name} needs a key but declares no key scope`);
    chain.push(rateClass(route.rateClass), routeScope(route.scope));
  }
  // A route's own body limit (a public route, which the daemon's JSON limit does not reach).
  if (route.bodyLimit) {
    const { bytes, message } = route.bodyLimit;
    chain.push(bodyLimit({ maxSize: bytes, onError: () => { throw new ApiError('payload_too_large', message); } }));
  }
  if (route.idempotent && route.bodyKind === 'json') chain.push(idempotency({ store: options.store, clock: options.clock, route: route.name }));
  const run = async (c: Context<AppEnv>) => {
    const answer = 'raw' in handler ? await handler.handle(c) : await handler((await readInput(route, c, schemas)) as RouteInput<R, M>, c);
    if (answer instanceof Response) return answer;
    const [status, body] = answer instanceof RouteReply ? [answer.status, answer.body] : [usual, answer];
    if (options.validateResponses) checkAnswer(route, status, body, schemas);
    // A 204 and the like (declared `kind: 'none'`): no body.
    if (route.responses[status]?.kind === 'none') return c.body(null, status as 204);
    // A text answer (declared `kind: 'csv'`): the handler's text as text/csv.
    if (route.responses[status]?.kind === 'csv') return c.body(String(body), status as 200, { 'content-type': 'text/csv; charset=utf-8' });
    return c.json(body as object, status as 200);
  };
  const full = honoPath(route);
  const under = options.under;
  if (under !== undefined && !full.startsWith(`${under}/`)) throw new Error(`${route.name} (${full}) is not under ${under}`);
  app.on([route.method], [under === undefined ? full : full.slice(under.length)], ...chain, run);
}

/** Mounts the routes of `table` named in `handlers`, each with its handler. */
export function mountRoutes<T extends Record<string, RouteDecl>, N extends keyof T & string, M = SchemaMap>(
  app: Hono<AppEnv>,
  table: T,
  handlers: { [K in N]: RouteHandler<T[K], M> },
  options: MountOptions,
): void {
  for (const name of Object.keys(handlers) as N[]) {
    const route = table[name];
    if (!route) throw new Error(`no route ${name} in the table`);
    mountRoute(app, route, handlers[name] as RouteHandler<T[N], M>, options);
  }
}
