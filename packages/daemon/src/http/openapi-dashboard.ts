import { APP_PATHS } from './dashboard/dashboard-routes';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const ok = (id: string, description = 'Success') => ({ description, content: json(ref(id)) });
const error = (description: string) => ({ description, content: json(ref('Error')) });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const noContent = { description: 'Done (no body)' };
const ERRORS = {
  400: error('Invalid or missing parameters (`invalid_request`); `details` lists each problem.'),
  401: error('No valid API key or session (`unauthorized`).'),
  403: error('A cookie-authenticated unsafe request without the CSRF token or from another origin (`csrf_failed`), or another user\'s job (`forbidden`).'),
  404: error('No such resource of the caller (`not_found`).'),
  409: error('The resource\'s state does not allow it (`conflict`).'),
  410: error('The review link expired or was revoked (`gone`).'),
  429: error('Rate limit of the account class, or the address\'s failed-authentication limit (`rate_limited`).'),
};
const pick = (...codes: (keyof typeof ERRORS)[]) => Object.fromEntries(codes.map((c) => [String(c), ERRORS[c]]));
const path = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const CSRF = { name: 'X-CSRF-Token', in: 'header', required: false, description: 'With the session cookie (not a key): the session\'s csrf_token (GET /auth/session).', schema: { type: 'string' } };
const SESSION = [{ Session: [] }];
const PUBLIC: unknown[] = [];
const DASHBOARD_HEADERS = 'With the dashboard\'s Content-Security-Policy, X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer and X-Frame-Options: DENY.';

/**
 * The dashboard's paths outside the API (docs/dashboard.md): its sign-in (/auth/*: cookies,
 * redirects and pages, with the session's own rules), /connect/callback, the review-link page
 * and the app's pages and assets. Its extensions of the API (keys, connections, review links)
 * are declared in core's route table and generated with the other routes.
 */
export function dashboardPaths(): Record<string, Json> {
  const page = (operationId: string, summary: string) => ({
    get: {
      operationId,
      summary,
      tags: ['dashboard'],
      security: SESSION,
      responses: { 200: html(`The app (index.html). ${DASHBOARD_HEADERS}`), 303: { description: 'No session: to /signin' } },
    },
  });
  const appPaths: Record<string, Json> = { '/': page('dashboardApp', 'The dashboard (signed in), else 303 to /signin') };
  for (const appPath of APP_PATHS) {
    const name = appPath.slice(1);
    appPaths[appPath] = page(`dashboard_${name}`, `The dashboard's ${name} screen (signed in), else 303 to /signin`);
    appPaths[`${appPath}/*`] = page(`dashboard_${name}_sub`, `A path inside the dashboard's ${name} screen (signed in), else 303 to /signin`);
  }
  return {
    '/auth/link/{token}': {
      get: {
        operationId: 'signinLink',
        summary: 'Use a one-time sign-in link (socialpub dashboard): sets the session cookie and 303s to / (from another site: a confirmation page)',
        tags: ['dashboard'],
        security: PUBLIC,
        parameters: [path('token', 'The link\'s token (spl_…).')],
        responses: { 200: html('Opened from another site: a page with a button that posts the link back'), 303: { description: 'Signed in (Set-Cookie: sp_session); to /' }, 410: html('Used, expired or unknown') },
      },
      post: {
        operationId: 'signinLinkConfirm',
        summary: 'Use a one-time sign-in link from the confirmation page (same origin only)',
        tags: ['dashboard'],
        security: PUBLIC,
        parameters: [path('token', 'The link\'s token (spl_…).')],
        responses: { 303: { description: 'Signed in; to /' }, 403: ERRORS[403], 410: html('Used, expired or unknown') },
      },
    },
    '/auth/session': {
      get: { operationId: 'session', summary: 'The session of the sp_session cookie, with its CSRF token', tags: ['dashboard'], security: SESSION, responses: { 200: ok('DashboardSession'), 401: ERRORS[401] } },
      post: {
        operationId: 'signinWithKey',
        summary: 'Sign in with an API key (same origin only): sets the session cookie',
        tags: ['dashboard'],
        security: PUBLIC,
        requestBody: { required: true, content: json({ type: 'object', required: ['api_key'], properties: { api_key: { type: 'string' } } }) },
        responses: { 200: { description: 'Signed in (Set-Cookie: sp_session)', content: json({ type: 'object', properties: { user: { type: 'object' }, expires_at: { type: 'string' } } }) }, ...pick(400, 401, 403, 429) },
      },
    },
    '/auth/sessions': {
      get: {
        operationId: 'listSessions',
        summary: "The signed-in user's open dashboard sessions (how each was opened, the key's prefix, which is this one; never a token)",
        tags: ['dashboard'],
        security: SESSION,
        responses: {
          200: {
            description: 'The open sessions, newest first',
            content: json({
              type: 'object',
              properties: {
                data: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'string' },
                      created_at: { type: 'string' },
                      last_seen_at: { type: 'string' },
                      expires_at: { type: 'string' },
                      signed_in_with: { type: 'string', enum: ['link', 'key'] },
                      key_prefix: { type: ['string', 'null'] },
                      current: { type: 'boolean' },
                    },
                  },
                },
              },
            }),
          },
          401: ERRORS[401],
        },
      },
    },
    '/auth/sessions/{id}': {
      delete: {
        operationId: 'endSession',
        summary: 'End one of the user\'s sessions (X-CSRF-Token, same origin); ending this one clears the cookie',
        tags: ['dashboard'],
        security: SESSION,
        parameters: [path('id', 'The session\'s id (GET /auth/sessions).'), CSRF],
        responses: { 204: noContent, ...pick(401, 403, 404) },
      },
    },
    '/auth/signout': {
      post: { operationId: 'signout', summary: 'End the session and clear the cookie (X-CSRF-Token, same origin)', tags: ['dashboard'], security: SESSION, parameters: [CSRF], responses: { 204: noContent, 403: ERRORS[403] } },
    },
    '/connect/callback': {
      get: {
        operationId: 'connectCallback',
        summary: 'Where a platform sends the browser back during a dashboard connect (matched by the OAuth state); 303 to /connections?pending={id}',
        tags: ['connections'],
        security: PUBLIC,
        responses: { 303: { description: 'To the Connections screen' }, 400: html('No connect in progress with this state') },
      },
    },
    '/signin': { get: { operationId: 'signinPage', summary: 'The sign-in page (always)', tags: ['dashboard'], security: PUBLIC, responses: { 200: html(`signin.html. ${DASHBOARD_HEADERS}`) } } },
    '/r/{token}': {
      get: {
        operationId: 'reviewLinkPage',
        summary: 'The review-link page for a live link (X-Robots-Tag: noindex, nofollow)',
        tags: ['review-links'],
        security: PUBLIC,
        parameters: [path('token', 'The link\'s token.')],
        responses: { 200: html('review-link.html'), 404: html('Unknown, expired or revoked: a page with no data') },
      },
    },
    '/assets/*': {
      get: {
        operationId: 'dashboardAsset',
        summary: 'The dashboard\'s built assets (hashed names cached a year, immutable)',
        tags: ['dashboard'],
        security: PUBLIC,
        responses: { 200: { description: 'The file with its Content-Type' }, 404: { description: 'No such file' } },
      },
    },
    ...appPaths,
  };
}
