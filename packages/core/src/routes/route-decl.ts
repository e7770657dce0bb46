import type { z } from 'zod';
import type { SchemaKey, SchemaMap } from '../schemas/schema-map';
import type { KeyScope } from '../key-scopes';
import type { RateClass } from './rate-classes';

/** Methods an endpoint of the API is declared with. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The error statuses the OpenAPI document describes for a route (with the one error body). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 500 | 503;

/** One answer of a route: the schema (by key; several: any one of them) and what it means. */
export interface ResponseDecl {
  schema: SchemaKey | readonly SchemaKey[];
  description?: string;
  /**
   * What the answer's body is (default `json`): `none` (a 204: no body; the schema is
   * 'NoContent'), `event-stream` (Server-Sent Events: the handler answers the stream
   * itself; the schema is what each message's data line holds), or `csv` (text/csv: the
   * handler answers the text, the schema 'CsvText').
   */
  kind?: 'json' | 'none' | 'event-stream' | 'csv';
}

/**
 * One endpoint of the API, declared once (api-routes.ts). What derives from it:
 * - the daemon mounts it (http/route-table/mount-route.ts): auth and the key scope it needs, its rate class,
 *   Idempotency-Key, the body limit, parsing of path, query and body with these schemas
 *   into the one error body, the answer's status (and its schema, when responses are checked);
 * - the OpenAPI document's path item (http/route-table/openapi-paths.ts);
 * - the SDK's call (`transport.call(route, input)`): method, path, query, body, key,
 *   Idempotency-Key, retry safety and the schema an answer is checked against;
 * - the MCP server's in-process backend, which is that SDK over the daemon's app.
 *
 * Schemas are named by key (`SCHEMAS[key]` in core's schemas/schema-map.ts), never held,
 * so the table loads without zod.
 */
export interface RouteDecl {
  /** Stable name `<resource>.<action>`; also the Idempotency-Key records' route (never renamed). */
  name: string;
  method: RouteMethod;
  /** Under the API prefix (`/api/agents/v1`), with `{param}` placeholders; from the root when `root` is true. */
  path: string;
  root?: boolean;
  /** `key`: an API key (or the dashboard's session); `public`: no credentials (health, this document). */
  auth: 'key' | 'public';
  /** The rate class a request counts against (every keyed route has one). */
  rateClass?: RateClass;
  /**
   * The least key scope that may call it (every keyed route has one; key-scopes.ts): `read`
   * only for what changes nothing (a GET, or a POST declared readOnly). A key below it is
   * answered 403 `insufficient_scope` before the route runs.
   */
  scope?: KeyScope;
  /** Path parameters, a zod object by key. */
  params?: SchemaKey;
  /** Query parameters, a zod object by key. */
  query?: SchemaKey;
  /** Descriptions of path and query parameters, by name (the OpenAPI document's). */
  paramDescriptions?: Readonly<Record<string, string>>;
  /** `json` (the request body, by `body`), `upload` (raw bytes, streamed; not the JSON body limit) or `none`. */
  bodyKind: 'json' | 'upload' | 'none';
  /** The JSON body's schema, and whether a body must be sent (false: an empty body reads as `{}`). */
  body?: { schema: SchemaKey; required: boolean };
  /** Successful answers by status; the first is the usual one. */
  responses: Readonly<Record<number, ResponseDecl>>;
  /** Error statuses the route may answer (the one error body). */
  errors: readonly ErrorStatus[];
  /** A route's own wording of an error status, where the general one would mislead. */
  errorDescriptions?: Readonly<Partial<Record<ErrorStatus, string>>>;
  /** Request headers the route reads (besides the key, Idempotency-Key and X-SocialPub-Source), with their descriptions: the OpenAPI document's header parameters. */
  headerParams?: Readonly<Record<string, string>>;
  /** A body limit of the route's own, below the daemon's JSON limit (a public route, which the general limit does not reach): bytes, and the 413's message. */
  bodyLimit?: { bytes: number; message: string };
  /** Documents X-CSRF-Token: the dashboard's session cookie needs it on this unsafe route. */
  csrf?: boolean;
  /** Idempotency-Key honoured: a repeat with the same key and body replays the first answer. */
  idempotent?: boolean;
  /** The Idempotency-Key parameter's description, where the general one does not fit. */
  idempotencyDescription?: string;
  /** A POST that changes nothing: safe to repeat (retried like a GET). */
  readOnly?: boolean;
  /** X-SocialPub-Source is read (recorded as the post's source). */
  source?: boolean;
  /** OpenAPI texts. */
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
}

/** A table of declarations by name. */
export type RouteTable = Readonly<Record<string, RouteDecl>>;

type Keys<S> = S extends readonly (infer K)[] ? K : S;
/** The parsed (output) type of the schema at `K` of a schema map. */
export type SchemaOutput<K, M = SchemaMap> = K extends keyof M ? (M[K] extends z.ZodType ? z.output<M[K]> : never) : never;
/** What a caller sends for the schema at `K` (its input type). */
export type SchemaInput<K, M = SchemaMap> = K extends keyof M ? (M[K] extends z.ZodType ? z.input<M[K]> : never) : never;

/** The first (usual) success status of a route. */
type FirstStatus<R extends RouteDecl> = Extract<keyof R['responses'], number> extends infer S ? (200 extends S ? 200 : 201 extends S ? 201 : S) : never;
/** The schema keys of a route's usual answer. */
export type ResponseKey<R extends RouteDecl> = Keys<R['responses'][FirstStatus<R> & keyof R['responses']]['schema']>;
/** The type of a route's usual answer (a union where several schemas are declared). */
export type RouteResponse<R extends RouteDecl, M = SchemaMap> = SchemaOutput<ResponseKey<R>, M>;
/** The parsed path parameters, query and body a handler receives. */
export interface RouteInput<R extends RouteDecl, M = SchemaMap> {
  params: R['params'] extends SchemaKey ? SchemaOutput<R['params'], M> : Record<string, never>;
  query: R['query'] extends SchemaKey ? SchemaOutput<R['query'], M> : Record<string, never>;
  body: R['body'] extends { schema: infer K } ? SchemaOutput<K, M> : undefined;
}
/** What a caller gives for a route: path parameters, query and body, each where the route has it. */
export type RouteCallInput<R extends RouteDecl, M = SchemaMap> = (R['params'] extends SchemaKey ? { params: SchemaInput<R['params'], M> } : { params?: never }) &
  (R['query'] extends SchemaKey ? { query?: SchemaInput<R['query'], M> } : { query?: never }) &
  (R['body'] extends { schema: infer K; required: true } ? { body: SchemaInput<K, M> } : R['body'] extends { schema: infer K } ? { body?: SchemaInput<K, M> } : { body?: never });

/** `{task_id}` placeholders filled in (each value URI-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new TypeError(`path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Declares a table, keeping each entry's literal types (for the typed handlers and SDK
 * calls); an entry's `name` is its key, written once.
 */
export function defineRoutes<const T extends Record<string, Omit<RouteDecl, 'name'>>>(table: T): { [K in keyof T & string]: T[K] & { name: K } } {
  // An entry already named (one table spread into another) stays the same object.
  const named = (name: string, decl: Omit<RouteDecl, 'name'>) => ((decl as Partial<RouteDecl>).name === name ? decl : { name, ...decl });
  return Object.fromEntries(Object.entries(table).map(([name, decl]) => [name, named(name, decl)])) as { [K in keyof T & string]: T[K] & { name: K } };
}
