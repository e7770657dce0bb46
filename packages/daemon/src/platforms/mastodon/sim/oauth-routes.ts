import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import type { SimCodes } from '../../shared/sim/sim-codes';
import type { SimMap } from '../../shared/sim/sim-state';
import { SIM_VAPID_KEY } from './instance';
import { readBody } from './read-body';

export interface SimApp {
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
}

export interface SimCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  accountId: string;
  scopes: string[];
  expiresAt: number;
}

export interface SimToken {
  accountId: string;
  scopes: string[];
  clientId: string;
}

export interface OAuthRouteDeps {
  clock: Clock;
  apps: SimMap<SimApp>;
  tokens: SimMap<SimToken>;
  /** Authorization codes, in the simulators' store: the consent on one daemon, the exchange on another (sim-codes.ts). */
  codes: SimCodes<SimCode>;
  nextId: () => bigint;
  /** The account the consent page signs in as. */
  accountId: string;
  error(c: Context, status: number, message: string, extra?: Record<string, unknown>): Response;
  /** Counts a call without a token; a 429 when the window is spent. */
  anonymous(c: Context): Response | null;
}

/**
 * The simulated server's app registration and OAuth endpoints: `POST /api/v1/apps`,
 * `/oauth/authorize` (approves at once and redirects with a code, as the other simulators'
 * consent pages do) and `POST /oauth/token` (client secret, redirect URI and PKCE verifier
 * checked; a code once).
 */
export function oauthRoutes(deps: OAuthRouteDeps): Hono {
  const { clock, apps, tokens, codes, nextId, error, anonymous } = deps;
  const app = new Hono();

  app.post('/api/v1/apps', async (c) => {
    const limited = anonymous(c);
    if (limited) return limited;
    const b = await readBody(c);
    if (!b) return error(c, 422, 'Validation failed: the body is not JSON or a form');
    const name = typeof b.client_name === 'string' ? b.client_name.trim() : '';
    const uris = (Array.isArray(b.redirect_uris) ? b.redirect_uris : typeof b.redirect_uris === 'string' ? b.redirect_uris.split(/\s+/) : []).filter((u): u is string => typeof u === 'string' && u !== '');
    if (!name) return error(c, 422, "Validation failed: Application name can't be blank");
    if (uris.length === 0) return error(c, 422, "Validation failed: Redirect URI can't be blank");
    for (const u of uris) {
      if (u !== 'urn:ietf:wg:oauth:2.0:oob' && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(u)) return error(c, 422, 'Validation failed: Redirect URI must be an absolute URI.');
    }
    const scopes = (typeof b.scopes === 'string' && b.scopes.trim() ? b.scopes : 'read').split(/[\s+]+/);
    const a: SimApp = { clientId: randomBytes(24).toString('base64url'), clientSecret: randomBytes(24).toString('base64url'), name, redirectUris: uris, scopes };
    apps.set(a.clientId, a);
    return c.json({
      id: String(nextId()),
      name,
      website: typeof b.website === 'string' ? b.website : null,
      scopes,
      redirect_uri: uris.join('\n'),
      redirect_uris: uris,
      client_id: a.clientId,
      client_secret: a.clientSecret,
      client_secret_expires_at: 0,
      vapid_key: SIM_VAPID_KEY,
    });
  });

  // The consent screen approves at once (as the other simulators' do), as the account it signs in as.
  app.get('/oauth/authorize', (c) => {
    const q = c.req.query();
    const a = q.client_id ? apps.get(q.client_id) : undefined;
    if (!a) return error(c, 401, 'invalid_client', { error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' });
    if (!q.redirect_uri || !a.redirectUris.includes(q.redirect_uri)) return error(c, 400, 'invalid_redirect_uri', { error_description: 'The requested redirect uri is malformed or doesn\'t match client redirect URI.' });
    if (q.response_type !== 'code') return error(c, 400, 'unsupported_response_type', { error_description: 'The authorization server does not support this response type.' });
    const scopes = (q.scope ?? 'read').split(/[\s+]+/);
    if (scopes.some((s) => !a.scopes.some((g) => g === s || g === s.split(':')[0]))) return error(c, 400, 'invalid_scope', { error_description: 'The requested scope is invalid, unknown, or malformed.' });
    if (q.code_challenge && q.code_challenge_method !== 'S256') return error(c, 400, 'invalid_request', { error_description: 'Only the S256 code challenge method is supported.' });
    const code = randomBytes(24).toString('base64url');
    codes.issue(code, { clientId: a.clientId, redirectUri: q.redirect_uri, challenge: q.code_challenge ?? null, accountId: deps.accountId, scopes, expiresAt: clock.now() + 10 * 60_000 }, clock.now());
    const to = new URL(q.redirect_uri);
    to.searchParams.set('code', code);
    if (q.state) to.searchParams.set('state', q.state);
    return c.redirect(to.toString(), 302);
  });

  app.post('/oauth/token', async (c) => {
    const limited = anonymous(c);
    if (limited) return limited;
    const b = (await readBody(c)) ?? {};
    const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '');
    const a = apps.get(str('client_id'));
    if (!a || a.clientSecret !== str('client_secret')) return error(c, 401, 'invalid_client', { error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' });
    if (str('grant_type') !== 'authorization_code') return error(c, 400, 'unsupported_grant_type', { error_description: 'The authorization grant type is not supported by the authorization server.' });
    const code = codes.get(str('code'));
    const invalid = () => error(c, 400, 'invalid_grant', { error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.' });
    if (!code || code.used || code.clientId !== a.clientId || code.expiresAt < clock.now() || code.redirectUri !== str('redirect_uri')) return invalid();
    if (code.challenge !== null && createHash('sha256').update(str('code_verifier')).digest('base64url') !== code.challenge) return invalid();
    // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
    if (!codes.take(str('code'), clock.now())) return invalid();
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, { accountId: code.accountId, scopes: code.scopes, clientId: a.clientId });
    return c.json({ access_token: token, token_type: 'Bearer', scope: code.scopes.join(' '), created_at: Math.floor(clock.now() / 1000) });
  });

  return app;
}
