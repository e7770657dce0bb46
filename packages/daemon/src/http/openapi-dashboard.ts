import { API_PREFIX } from '@socialpub/core';
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

/** The dashboard's paths: its extensions of the API (keys, connections, review links), its sign-in and its pages (docs/dashboard.md). */
export function dashboardPaths(): Record<string, Json> {
  const p = (suffix: string) => `${API_PREFIX}${suffix}`;
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
    [p('/keys')]: {
      get: { operationId: 'listKeys', summary: 'The caller\'s active API keys (name, prefix; never the secret)', tags: ['keys'], parameters: [], responses: { 200: ok('ApiKeyList'), ...pick(401, 429) } },
      post: {
        operationId: 'createKey',
        summary: 'A new API key for the caller; the full key is in this answer only',
        tags: ['keys'],
        parameters: [CSRF],
        requestBody: { required: false, content: json(ref('ApiKeyCreateRequest')) },
        responses: { 201: ok('ApiKeyCreated', 'Created'), ...pick(400, 401, 403, 429) },
      },
    },
    [p('/keys/{id}')]: {
      delete: { operationId: 'revokeKey', summary: 'Revoke one of the caller\'s keys (refused from the next request on)', tags: ['keys'], parameters: [path('id', 'The key (key_…).'), CSRF], responses: { 204: noContent, ...pick(401, 403, 404, 429) } },
    },
    [p('/keys/{id}/rotate')]: {
      post: { operationId: 'rotateKey', summary: 'Replace a key: the new one (shown once) works, the old one stops at once', tags: ['keys'], parameters: [path('id', 'The key (key_…).'), CSRF], responses: { 201: ok('ApiKeyCreated', 'Created'), ...pick(401, 403, 404, 429) } },
    },
    [p('/connections')]: {
      get: { operationId: 'listConnections', summary: 'The caller\'s platform connections with their status', tags: ['connections'], responses: { 200: ok('ConnectionList'), ...pick(401, 429) } },
    },
    [p('/connections/sandbox')]: {
      post: {
        operationId: 'connectSandbox',
        summary: 'Connect a platform\'s simulator (replaces the platform\'s connection)',
        tags: ['connections'],
        parameters: [CSRF],
        requestBody: { required: true, content: json({ type: 'object', required: ['platform'], properties: { platform: ref('Platform') } }) },
        responses: { 201: ok('Connection', 'Connected'), ...pick(400, 401, 403, 429) },
      },
    },
    [p('/connections/{id}')]: {
      delete: { operationId: 'removeConnection', summary: 'Remove a connection', tags: ['connections'], parameters: [path('id', 'The connection (con_…).'), CSRF], responses: { 204: noContent, ...pick(401, 403, 404, 429) } },
    },
    [p('/connections/{platform}/authorize')]: {
      post: {
        operationId: 'authorizeConnection',
        summary: 'Start a live connect: answers the platform\'s consent URL; the platform sends the browser back to GET /connect/callback',
        tags: ['connections'],
        parameters: [path('platform', 'The platform.'), CSRF],
        requestBody: { required: true, content: json(ref('ConnectAuthorizeRequest')) },
        responses: { 200: ok('PendingConnect', 'The flow, with authorize_url'), ...pick(400, 401, 403, 429) },
      },
    },
    [p('/connections/pending/{id}')]: {
      get: { operationId: 'pendingConnection', summary: 'A live connect in progress (10 minutes): its status, question and choices', tags: ['connections'], parameters: [path('id', 'The flow (pcn_…).')], responses: { 200: ok('PendingConnect'), ...pick(401, 404, 429) } },
    },
    [p('/connections/pending/{id}/choose')]: {
      post: {
        operationId: 'choosePendingConnection',
        summary: 'Answer the flow\'s question (the Facebook page)',
        tags: ['connections'],
        parameters: [path('id', 'The flow (pcn_…).'), CSRF],
        requestBody: { required: true, content: json({ type: 'object', required: ['page_id'], properties: { page_id: { type: 'string' } } }) },
        responses: { 200: ok('PendingConnect'), ...pick(400, 401, 403, 404, 409, 429) },
      },
    },
    [p('/review-links')]: {
      get: { operationId: 'listReviewLinks', summary: 'The caller\'s review links, newest first (never their token)', tags: ['review-links'], responses: { 200: ok('ReviewLinkList'), ...pick(401, 429) } },
      post: {
        operationId: 'createReviewLink',
        summary: 'A review link for some of the caller\'s posts (72 h by default); the url is in this answer only',
        tags: ['review-links'],
        parameters: [CSRF],
        requestBody: { required: true, content: json(ref('ReviewLinkCreateRequest')) },
        responses: { 201: ok('ReviewLinkCreated', 'Created'), ...pick(400, 401, 403, 404, 429) },
      },
    },
    [p('/review-links/{id}')]: {
      delete: { operationId: 'revokeReviewLink', summary: 'Revoke a review link (410 from now on)', tags: ['review-links'], parameters: [path('id', 'The link (rvl_…).'), CSRF], responses: { 204: noContent, ...pick(401, 403, 404, 429) } },
    },
    [p('/review-links/public/{token}')]: {
      get: {
        operationId: 'readReviewLink',
        summary: 'What a review link shows: its posts and the decisions made (the token is the credential)',
        tags: ['review-links'],
        security: PUBLIC,
        parameters: [path('token', 'The token of the link\'s url.')],
        responses: { 200: ok('ReviewLinkPublic'), ...pick(404, 410, 429) },
      },
    },
    [p('/review-links/public/{token}/decisions')]: {
      post: {
        operationId: 'decideReviewLink',
        summary: 'Approve or reject one of the link\'s posts, with a comment (an event with source review_link)',
        tags: ['review-links'],
        security: PUBLIC,
        parameters: [path('token', 'The token of the link\'s url.')],
        requestBody: { required: true, content: json(ref('ReviewDecisionRequest')) },
        responses: { 200: ok('UpdateResponse', 'The updated job'), ...pick(400, 404, 409, 410, 429) },
      },
    },
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
