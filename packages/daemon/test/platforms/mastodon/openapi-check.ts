import { createOpenApiChecker } from '../../support/openapi-check';

/**
 * Checks recorded Mastodon traffic against the community OpenAPI description of Mastodon's
 * API (mastodon.openapi.json beside this file; see README.md for its source), the API and
 * the OAuth endpoints alike. The checking itself is test/support/openapi-check.ts.
 *
 * Two readings of the description, said here once:
 * - POST /api/v1/statuses takes `oneOf` TextStatus, MediaStatus, PollStatus, which
 *   overlap (a status with text and media is both a TextStatus and a MediaStatus), so a
 *   `oneOf` is read as `anyOf`.
 * - The Idempotency-Key header is described with `type: object` (it is a string), so
 *   header parameters are not checked against their schemas (the checker checks none).
 */
export const { checkExchange, checkTraffic } = createOpenApiChecker({
  name: 'the Mastodon API description',
  spec: new URL('./mastodon.openapi.json', import.meta.url),
  source: 'packages/daemon/test/platforms/mastodon/README.md',
  covers: () => true,
  prepare: (spec) => JSON.parse(JSON.stringify(spec).replace(/"oneOf":/g, '"anyOf":')) as unknown,
  // The authorization endpoint answers a consent with a redirect, which the description leaves out (RFC 6749 §4.1.2).
  undescribedAnswer: (template, status) => template === '/oauth/authorize' && status === 302,
});
