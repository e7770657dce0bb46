import { createOpenApiChecker } from '../../support/openapi-check';

/**
 * Checks recorded Pinterest traffic against Pinterest's own OpenAPI description of REST
 * API v5 (test/reference/pinterest-v5.openapi.json, copied unchanged from
 * github.com/pinterest/api-description, MIT): each request's path, query parameters and
 * body against the operation, and each response against the schema of its status. The
 * description's paths are relative to its server (`https://api.pinterest.com/v5`). The
 * checking itself is test/support/openapi-check.ts.
 */
export const { checkExchange, checkTraffic } = createOpenApiChecker({
  name: "Pinterest's v5 description",
  spec: new URL('../../reference/pinterest-v5.openapi.json', import.meta.url),
  source: 'packages/daemon/test/reference/README.md',
  // The /v5 API on api.pinterest.com (the upload URL, S3's in real life, is not part of it).
  covers: (r) => r.host === 'api.pinterest.com' && r.path.startsWith('/v5/'),
  // OpenAPI 3.0's `nullable` is understood by Ajv; `discriminator` is left to the oneOf it sits beside.
  prepare: withNullTypes,
  basePath: '/v5',
  checkPathParameters: true,
  rejectUnexpectedBody: true,
});

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
