import { createOpenApiChecker } from '../../support/openapi-check';

/**
 * Checks recorded X traffic against X's own OpenAPI description
 * (packages/daemon/test/reference/x-api-v2.openapi.json, copied into the repository so a
 * clone tests on its own; its source and licence: packages/daemon/test/reference/README.md).
 * The checking itself is test/support/openapi-check.ts.
 */
export const { checkExchange, checkTraffic } = createOpenApiChecker({
  name: 'the X API v2 description',
  spec: new URL('../../reference/x-api-v2.openapi.json', import.meta.url),
  source: 'packages/daemon/test/reference/README.md',
  // The API v2 paths; the OAuth endpoints, which the description leaves out, are skipped.
  covers: (r) => r.path.startsWith('/2/') && !r.path.startsWith('/2/oauth2/'),
  // The guides' and clients' name for the description's post.fields (docs/reference/platforms.md
  // §12.3.6; twitter-api-v2 sends it): known, its values those of the guides (author_id, …).
  alsoKnownQuery: (name, op) => name === 'tweet.fields' && (op.parameters ?? []).some((p) => p.$ref?.endsWith('/PostFieldsParameter')),
  // Multipart fields arrive as strings; the chunked upload's segment_index is a number.
  requestBody: (type, body) =>
    type === 'multipart/form-data' && body && typeof body === 'object'
      ? Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([k, v]) => [k, k === 'segment_index' ? Number(v) : v]))
      : body,
});
