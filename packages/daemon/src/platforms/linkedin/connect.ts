import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import { ask } from '../shared/ask';
import { labelsForChoices } from '../shared/choice-labels';
import { authorizeCode } from '../shared/authorize-code';
import { exchangeAuthorizationCode } from '../shared/exchange-authorization-code';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import type { LinkedinVersions } from './api-version';
import { LinkedinApiError, LinkedinClient } from './linkedin-client';
import { LINKEDIN_API_HOST } from './linkedin-session';
import { organizationUrn } from './little-text';
import { listAdministered, organizationName, userinfo } from './organizations';
import { LINKEDIN_OAUTH_HOST, LINKEDIN_TOKEN_PATH, linkedinTokenUpdate, type LinkedinTokenResponse } from './refresh-token';

/**
 * Scopes asked for: posting as the member (w_member_social), the member's id and name
 * (openid profile, for /v2/userinfo), and posting as and reading the organizations the
 * member administers (w_organization_social, r_organization_social; organizationAcls).
 */
// rw_organization_admin and r_member_postAnalytics: the figures of an organization's and the member's posts (analytics, docs/reference/platforms.md §18.5).
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin', 'r_member_postAnalytics'];

export interface LinkedinConnectOptions {
  userId: string;
  clientId?: string;
  clientSecret?: string;
  /** The redirect URL registered in the LinkedIn app, exactly. Default `http://127.0.0.1:8765/callback`. */
  redirectUri?: string;
  /** Post as this organization (id or URN) instead of asking; `member` posts as the member; several, comma-separated: one account each. */
  organizationId?: string;
  /** The label asked for (--label): given to the first author; the others get their own (several chosen). */
  label?: string | null;
  timeoutMs?: number;
}

const MEMBER = 'member';

/**
 * `socialpub connect linkedin`: OAuth 2.0 3-legged with the user's own LinkedIn app
 * (www.linkedin.com/oauth/v2/authorization, a loopback redirect, the code exchanged at
 * /oauth/v2/accessToken with the client secret), then who the member is (/v2/userinfo)
 * and which organizations they administer (organizationAcls). The author is chosen the
 * way a Facebook page is: `--organization <id>` (or `member`), else asked when there is a choice.
 */
export async function connectLinkedin(options: LinkedinConnectOptions, io: ConnectIO, deps: PlatformConnectDeps & { versions: LinkedinVersions }): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const clientId = await ask(io, options.clientId, 'LinkedIn client id');
  const clientSecret = await ask(io, options.clientSecret, 'LinkedIn client secret', { secret: true });
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:8765/callback';
  const build = (p: { redirectUri: string; state: string }) =>
    `${baseUrl(LINKEDIN_OAUTH_HOST)}/oauth/v2/authorization?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: p.redirectUri, state: p.state, scope: LINKEDIN_SCOPES.join(' ') })}`;
  const { code, redirectUri: usedRedirect } = await authorizeCode({
    redirectUri,
    buildUrl: build,
    registration: (uri) => `the LinkedIn app must list ${uri} as an authorized redirect URL`,
    io,
    clock,
    timeoutMs: options.timeoutMs,
  });
  // Codes live 30 minutes, but exchange at once.
  const tokens = (await exchangeAuthorizationCode(
    baseUrl(LINKEDIN_OAUTH_HOST) + LINKEDIN_TOKEN_PATH,
    { grant_type: 'authorization_code', code, redirect_uri: usedRedirect, client_id: clientId, client_secret: clientSecret },
    { baseUrl, clock, http: deps.http },
  )) as LinkedinTokenResponse;
  const granted = (tokens.scope ?? '').split(/[\s,]+/).filter(Boolean);
  const missing = ['w_member_social', 'openid', 'profile'].filter((s) => !granted.includes(s));
  if (missing.length > 0) throw new ConnectError(`LinkedIn granted no ${missing.join(', ')}; add the products "Share on LinkedIn" and "Sign In with LinkedIn using OpenID Connect" to the app and connect again`);
  const client = new LinkedinClient({ baseUrl: baseUrl(LINKEDIN_API_HOST), token: tokens.access_token as string, versions: deps.versions, clock, http: deps.http });
  let me;
  try {
    me = await userinfo(client);
  } catch (err) {
    throw new ConnectError(`LinkedIn refused /v2/userinfo: ${(err as Error).message}`);
  }
  const personUrn = `urn:li:person:${me.sub}`;
  // Organizations need the Community Management product; without it the member alone is offered.
  let orgs: Array<{ urn: string; name: string | null }> = [];
  if (granted.includes('w_organization_social')) {
    try {
      orgs = await Promise.all((await listAdministered(client)).map(async (o) => ({ urn: o.urn, name: await organizationName(client, o.urn) })));
    } catch (err) {
      if (!(err instanceof LinkedinApiError) || options.organizationId) throw new ConnectError(`LinkedIn refused the organizations lookup (organizationAcls): ${(err as Error).message}`);
    }
  }
  type Author = { urn: string; name: string | null } | null;
  const wanted = (options.organizationId ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  let authors: Author[];
  if (wanted.length > 0) {
    authors = wanted.map((w) => {
      if (w === MEMBER) return null;
      const urn = organizationUrn(w);
      const found = orgs.find((o) => o.urn === urn);
      if (!found) throw new ConnectError(`The member does not administer organization ${w}${orgs.length ? `; administered: ${orgs.map((o) => `${o.name ?? o.urn} (${o.urn.replace('urn:li:organization:', '')})`).join(', ')}` : ' (or the app lacks w_organization_social)'}`);
      return found;
    });
  } else if (orgs.length === 0) {
    authors = [null];
  } else {
    const choices = [
      { label: `${me.name ?? me.sub} (yourself)`, value: null as Author },
      ...orgs.map((o) => ({ label: `${o.name ?? 'Organization'} (${o.urn.replace('urn:li:organization:', '')})`, value: o as Author })),
    ];
    // Where several can be asked, each author chosen becomes an account of its own (issue 39).
    authors = io.chooseMany ? await io.chooseMany('Post to LinkedIn as? (each one becomes an account)', choices) : [await io.choose('Post to LinkedIn as?', choices)];
    if (authors.length === 0) throw new ConnectError('No author was chosen');
  }
  const now = clock.now();
  const update = linkedinTokenUpdate(tokens, now);
  const existing = (deps.connections.listForUser?.(options.userId) ?? []).filter((c) => c.platform === 'linkedin');
  const labels = labelsForChoices(existing, authors.map((a) => ({ id: a?.urn ?? null, name: a ? (a.name ?? a.urn) : (me.name ?? 'member') })), options.label ?? null);
  const saved = authors.map((author, i) =>
    deps.connections.save(
      options.userId,
      'linkedin',
      {
        mode: 'live',
        accountId: me.sub,
        accountName: me.name ?? null,
        pageId: author?.urn ?? null,
        pageName: author ? (author.name ?? author.urn) : null,
        secrets: { ...update.secrets, client_id: clientId, client_secret: clientSecret },
        tokenExpiresAt: update.tokenExpiresAt ?? null,
        refreshExpiresAt: update.refreshExpiresAt ?? null,
        tokenObtainedAt: now,
        meta: { person_urn: personUrn, scopes: granted, organizations: orgs.map((o) => ({ urn: o.urn, name: o.name })) },
      },
      i === 0 ? undefined : labels[i],
    ),
  );
  saved.forEach((info, i) => {
    const author = authors[i] as Author;
    const as = authors.length > 1 ? ` as linkedin:${info.label}` : '';
    io.print(`Connected LinkedIn ${author ? `organization ${author.name ?? author.urn} (as ${me.name ?? me.sub})` : `member ${me.name ?? me.sub}`}${as}${tokens.refresh_token ? '' : '; LinkedIn granted no refresh token, so reconnect when the token expires in 60 days'}.`);
  });
  return saved[0] as ConnectionInfo;
}
