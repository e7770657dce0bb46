import { DAY_MS, fail, granted, GraphFail, type MetaSimState, type SimPlatform, type SimRequest, type TokenRecord } from './core';

const LONG_LIVED_S = 5_184_000; // 60 days
const SHORT_LIVED_S = 3_600;

/**
 * The token endpoints of the three hosts (docs/reference/platforms.md §1.4, §2.4, §4.4): code exchange,
 * long-lived exchange, and refresh, which Instagram and Threads allow only for a
 * long-lived token at least 24 h old and not yet expired.
 */
export function oauthRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [first, second] = req.segments;
  const host = req.host;
  if ((host === 'api.instagram.com' || host === 'graph.threads.net' || host === 'graph.threads.com') && first === 'oauth' && second === 'access_token' && req.method === 'POST') {
    return codeExchange(req, sim, host === 'api.instagram.com' ? 'instagram' : 'threads');
  }
  if (host === 'graph.facebook.com' && first === 'oauth' && second === 'access_token' && req.method === 'GET') {
    if (req.params.grant_type === 'fb_exchange_token') return fbLongLived(req, sim);
    return codeExchange(req, sim, 'facebook');
  }
  if (second !== undefined) return undefined;
  if (host === 'graph.instagram.com' && first === 'access_token' && req.method === 'GET') return longLived(req, sim, 'instagram', 'ig_exchange_token');
  if (host === 'graph.instagram.com' && first === 'refresh_access_token' && req.method === 'GET') return refresh(req, sim, 'instagram', 'ig_refresh_token');
  if ((host === 'graph.threads.net' || host === 'graph.threads.com') && first === 'access_token' && req.method === 'GET') return longLived(req, sim, 'threads', 'th_exchange_token');
  if ((host === 'graph.threads.net' || host === 'graph.threads.com') && first === 'refresh_access_token' && req.method === 'GET') return refresh(req, sim, 'threads', 'th_refresh_token');
  return undefined;
}

/** Threads and Instagram token endpoints answer `{error_type, code, error_message}`, not the Graph object. */
function oauthFail(platform: SimPlatform, message: string, code = 400): never {
  if (platform === 'facebook') fail(100, message, { type: 'OAuthException' });
  throw new GraphFail(400, { error_type: 'OAuthException', code, error_message: message });
}

function checkApp(req: SimRequest, sim: MetaSimState, platform: SimPlatform): string {
  const appId = req.params.client_id;
  const app = appId ? sim.apps.get(appId) : undefined;
  if (!app) oauthFail(platform, 'Error validating application. Invalid application ID.', 101);
  if (req.params.client_secret !== app.appSecret) oauthFail(platform, 'Error validating client secret.', 1);
  return app.appId;
}

function codeExchange(req: SimRequest, sim: MetaSimState, platform: SimPlatform): unknown {
  const appId = checkApp(req, sim, platform);
  if (platform !== 'facebook' && req.params.grant_type !== 'authorization_code') oauthFail(platform, 'Invalid grant_type: authorization_code expected.');
  const code = sim.codes.get(req.params.code ?? '');
  if (!code || code.used || code.platform !== platform || code.appId !== appId || sim.clock.now() >= code.expiresAt) {
    oauthFail(platform, 'Matching code was not found or was already used');
  }
  if (code.redirectUri !== req.params.redirect_uri) oauthFail(platform, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request');
  // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
  if (!sim.codes.take(req.params.code ?? '', sim.clock.now())) oauthFail(platform, 'Matching code was not found or was already used');
  const kind: TokenRecord['kind'] = platform === 'instagram' ? 'ig_user' : platform === 'threads' ? 'threads_user' : 'fb_user';
  const rec = sim.issueToken({ token: sim.newToken(platform === 'facebook' ? 'EAA' : platform === 'threads' ? 'THQ' : 'IGQ'), platform, kind, accountId: code.accountId, expiresAt: sim.clock.now() + SHORT_LIVED_S * 1000, longLived: false, appId, ...granted(code.scopes) });
  if (platform === 'instagram') {
    // The documented shape (docs/reference/platforms.md §1.4); clients must also accept the flat one.
    return { data: [{ access_token: rec.token, user_id: code.accountId, permissions: 'instagram_business_basic,instagram_business_content_publish' }] };
  }
  if (platform === 'threads') return { access_token: rec.token, user_id: code.accountId };
  return { access_token: rec.token, token_type: 'bearer', expires_in: SHORT_LIVED_S };
}

function validToken(req: SimRequest, sim: MetaSimState, platform: SimPlatform, token: string | undefined): TokenRecord {
  const rec = token ? sim.tokens.get(token) : undefined;
  if (!rec || rec.platform !== platform) oauthFail(platform, 'Invalid OAuth access token - Cannot parse access token', 190);
  if (rec.revoked) oauthFail(platform, 'Error validating access token: The user has not authorized application.', 190);
  if (rec.expiresAt !== null && sim.clock.now() >= rec.expiresAt) oauthFail(platform, 'Error validating access token: Session has expired.', 190);
  return rec;
}

function longLived(req: SimRequest, sim: MetaSimState, platform: SimPlatform, grant: string): unknown {
  if (req.params.grant_type !== grant) oauthFail(platform, `Invalid grant_type: ${grant} expected.`);
  const short = validToken(req, sim, platform, req.token ?? undefined);
  const app = short.appId ? sim.apps.get(short.appId) : undefined;
  if (!app || req.params.client_secret !== app.appSecret) oauthFail(platform, 'Error validating client secret.', 1);
  const rec = sim.issueToken({ token: sim.newToken(platform === 'threads' ? 'THL' : 'IGL'), platform, kind: short.kind, accountId: short.accountId, expiresAt: sim.clock.now() + LONG_LIVED_S * 1000, longLived: true, appId: short.appId, ...granted(short.scopes) });
  return { access_token: rec.token, token_type: 'bearer', expires_in: LONG_LIVED_S };
}

function refresh(req: SimRequest, sim: MetaSimState, platform: SimPlatform, grant: string): unknown {
  if (req.params.grant_type !== grant) oauthFail(platform, `Invalid grant_type: ${grant} expected.`);
  const old = validToken(req, sim, platform, req.token ?? undefined);
  if (!old.longLived) oauthFail(platform, 'Only long-lived tokens can be refreshed.');
  if (sim.clock.now() - old.issuedAt < DAY_MS) oauthFail(platform, 'The access token can only be refreshed once it is at least 24 hours old.');
  const rec = sim.issueToken({ token: sim.newToken(platform === 'threads' ? 'THR' : 'IGR'), platform, kind: old.kind, accountId: old.accountId, expiresAt: sim.clock.now() + LONG_LIVED_S * 1000, longLived: true, appId: old.appId, ...granted(old.scopes) });
  return { access_token: rec.token, token_type: 'bearer', expires_in: LONG_LIVED_S };
}

function fbLongLived(req: SimRequest, sim: MetaSimState): unknown {
  const appId = checkApp(req, sim, 'facebook');
  const short = validToken(req, sim, 'facebook', req.params.fb_exchange_token);
  if (short.appId !== appId) oauthFail('facebook', 'Error validating access token: the token was issued for another app.');
  const rec = sim.issueToken({ token: sim.newToken('EAAL'), platform: 'facebook', kind: 'fb_user', accountId: short.accountId, expiresAt: sim.clock.now() + LONG_LIVED_S * 1000, longLived: true, appId, ...granted(short.scopes) });
  return { access_token: rec.token, token_type: 'bearer', expires_in: LONG_LIVED_S };
}
