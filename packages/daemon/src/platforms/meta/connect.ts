import type { Got } from 'got';
import { DEFAULT_GRAPH_VERSION, GraphClient } from './graph-client';
import { exchangeCode, exchangeFacebookCode, exchangeLongLived } from './token-endpoints';
import type { ConnectionInfo, ConnectionInput } from '../../store/connections';
import { systemClock, type Clock } from '../../util/clock';
import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import { isLoopbackRedirect, runLoopbackOAuth, type AuthorizeParams } from '../../oauth/loopback-oauth';
import { authorizeByPaste } from '../../oauth/paste-oauth';
import { labelsForChoices } from '../shared/choice-labels';

export type MetaPlatform = 'instagram' | 'facebook' | 'threads';

export interface MetaConnectOptions {
  /** The socialpub user the connection belongs to. */
  userId: string;
  /** The user's own Meta app (flags, else prompted). */
  appId?: string;
  appSecret?: string;
  /** Instagram only: `instagram` (Instagram Login, default; tokens refresh) or `facebook` (via a Facebook page). */
  login?: 'instagram' | 'facebook';
  /** Preselect the Facebook page by id instead of asking (facebook: several, comma-separated, one account each). */
  pageId?: string;
  /** The label asked for (--label): given to the first page; the others get their own (several pages chosen). */
  label?: string | null;
  /**
   * The redirect URI registered in the app. A `http://127.0.0.1:<port>/<path>` or
   * `http://localhost:…` URI is served by a loopback listener; any other (Instagram and
   * Threads insist on https) switches to paste mode: the user pastes the URL the browser
   * landed on. Default `http://localhost:8765/callback`.
   */
  redirectUri?: string;
  graphVersion?: string;
  timeoutMs?: number;
}

export interface MetaConnectDeps {
  connections: {
    save(userId: string, platform: MetaPlatform, input: ConnectionInput, label?: string | null): ConnectionInfo;
    listForUser?(userId: string): readonly ConnectionInfo[];
  };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
}

const SCOPES = {
  // The insights permissions are asked at connect (analytics, docs/reference/platforms.md §18): a grant without them reads no figures.
  instagram: ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights'],
  instagramViaFacebook: ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'pages_read_engagement', 'business_management', 'instagram_manage_insights'],
  facebook: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'read_insights'],
  threads: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
};

/**
 * Connects a real Instagram, Facebook or Threads account with the user's own app: OAuth
 * in the browser (loopback redirect, or paste mode for https redirect URIs), code
 * exchange, long-lived token, the Facebook page (and its linked Instagram account), and
 * the tokens sealed into the connection row.
 */
export async function connectMeta(platform: MetaPlatform, options: MetaConnectOptions, io: ConnectIO, deps: MetaConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const version = options.graphVersion ?? DEFAULT_GRAPH_VERSION;
  const appId = options.appId ?? (await io.prompt(`${platform === 'threads' ? 'Threads' : 'Meta'} app id`)).trim();
  const appSecret = options.appSecret ?? (await io.prompt('App secret', { secret: true })).trim();
  if (!/^\d+$/.test(appId)) throw new ConnectError(`The app id should be digits (from developers.facebook.com > your app > App settings); got "${appId}"`);
  if (!appSecret) throw new ConnectError('The app secret is required');
  const viaFacebook = platform === 'facebook' || (platform === 'instagram' && options.login === 'facebook');
  const redirectUri = options.redirectUri ?? 'http://localhost:8765/callback';

  const authorizeUrl = (p: AuthorizeParams): string => {
    const q = new URLSearchParams({ client_id: appId, redirect_uri: p.redirectUri, response_type: 'code', state: p.state });
    if (platform === 'threads') {
      q.set('scope', SCOPES.threads.join(','));
      return `https://threads.net/oauth/authorize?${q}`;
    }
    if (!viaFacebook) {
      q.set('scope', SCOPES.instagram.join(','));
      q.set('enable_fb_login', '0');
      return `https://www.instagram.com/oauth/authorize?${q}`;
    }
    q.set('scope', (platform === 'facebook' ? SCOPES.facebook : SCOPES.instagramViaFacebook).join(','));
    return `https://www.facebook.com/${version}/dialog/oauth?${q}`;
  };

  const { code, redirectUri: usedRedirect } = await authorize(redirectUri, authorizeUrl, io, clock, options.timeoutMs);
  const now = () => clock.now();
  const common = { app_id: appId, app_secret: appSecret };

  if (platform === 'threads' || !viaFacebook) {
    const host = platform === 'threads' ? 'graph.threads.net' : 'graph.instagram.com';
    const short = await exchangeCode({ baseUrl: baseUrl(platform === 'threads' ? 'graph.threads.net' : 'api.instagram.com'), appId, appSecret, code, redirectUri: usedRedirect, http: deps.http });
    const long = await exchangeLongLived({ baseUrl: baseUrl(host), grantType: platform === 'threads' ? 'th_exchange_token' : 'ig_exchange_token', appSecret, token: short.accessToken, http: deps.http });
    const client = new GraphClient({ baseUrl: baseUrl(host), version: platform === 'threads' ? 'v1.0' : version, token: long.accessToken, tokenIn: platform === 'threads' ? 'param' : 'header', http: deps.http });
    const me = await client.request<{ id?: string; user_id?: string | number; username?: string }>('me', { params: { fields: platform === 'threads' ? 'id,username' : 'user_id,username' } });
    const accountId = String(platform === 'threads' ? (me.id ?? short.userId) : (me.user_id ?? short.userId));
    const info = deps.connections.save(options.userId, platform, {
      mode: 'live',
      accountId,
      accountName: me.username ?? null,
      secrets: { access_token: long.accessToken, ...common },
      tokenExpiresAt: long.expiresIn ? now() + long.expiresIn * 1000 : null,
      tokenObtainedAt: now(),
      meta: { login: platform === 'threads' ? 'threads' : 'instagram', scopes: platform === 'threads' ? SCOPES.threads : SCOPES.instagram, graph_version: version },
    });
    io.print(`Connected ${platform} account @${me.username ?? accountId}.`);
    return info;
  }

  // Facebook Login: long-lived user token -> the pages it manages -> a page token (no expiry).
  const user = await exchangeFacebookCode({ baseUrl: baseUrl('graph.facebook.com'), version, appId, appSecret, code, redirectUri: usedRedirect, http: deps.http });
  const graph = new GraphClient({ baseUrl: baseUrl('graph.facebook.com'), version, token: user.accessToken, http: deps.http });
  const me = await graph.request<{ id: string; name?: string }>('me', { params: { fields: 'id,name' } });
  const pages = (await graph.request<{ data?: { id: string; name: string; access_token?: string }[] }>('me/accounts', { params: { fields: 'id,name,access_token,tasks', limit: 100 } })).data ?? [];
  if (pages.length === 0) throw new ConnectError('This Facebook account manages no pages that the app may use. Grant the app access to a page in the login dialog and try again.');
  const chosen = await choosePages(pages, options.pageId, platform, io);
  const page = chosen[0] as FacebookPage;
  for (const p of chosen) if (!p.access_token) throw new ConnectError(`No page access token for ${p.name}: the login lacks the CREATE_CONTENT task on that page`);
  const userExpiry = user.expiresIn ? now() + user.expiresIn * 1000 : null;
  // Page tokens from a long-lived user token do not expire; the user token's expiry is kept for reference.
  const saveWithPage = (target: 'facebook' | 'instagram', account: { id: string; name: string | null }, scopes: string[], of: FacebookPage, label?: string | null) =>
    deps.connections.save(
      options.userId,
      target,
      {
        mode: 'live',
        accountId: account.id,
        accountName: account.name,
        pageId: of.id,
        pageName: of.name,
        secrets: { access_token: of.access_token as string, user_token: user.accessToken, ...common },
        tokenExpiresAt: null,
        tokenObtainedAt: now(),
        meta: { login: 'facebook', scopes, graph_version: version, user_token_expires_at: userExpiry },
      },
      label,
    );
  if (platform === 'facebook') {
    // Each page chosen is an account of its own (issue 39): the first under the label asked
    // for, the others under their own (platforms/shared/choice-labels.ts).
    const existing = (deps.connections.listForUser?.(options.userId) ?? []).filter((c) => c.platform === 'facebook');
    const labels = labelsForChoices(existing, chosen, options.label ?? null);
    const saved = chosen.map((p, i) => saveWithPage('facebook', { id: me.id, name: me.name ?? null }, SCOPES.facebook, p, i === 0 ? undefined : labels[i]));
    saved.forEach((info, i) => io.print(`Connected Facebook page ${(chosen[i] as FacebookPage).name}${chosen.length > 1 ? ` as facebook:${info.label}` : ''}.`));
    return saved[0] as ConnectionInfo;
  }
  const pageClient = new GraphClient({ baseUrl: baseUrl('graph.facebook.com'), version, token: page.access_token as string, http: deps.http });
  const linked = await pageClient.request<{ instagram_business_account?: { id: string; username?: string } }>(page.id, { params: { fields: 'instagram_business_account{id,username}' } });
  const ig = linked.instagram_business_account;
  if (!ig) throw new ConnectError(`The page ${page.name} has no linked Instagram professional account. Link one in the page settings (or use --login instagram).`);
  const info = saveWithPage('instagram', { id: ig.id, name: ig.username ?? null }, SCOPES.instagramViaFacebook, page);
  io.print(`Connected Instagram account @${ig.username ?? ig.id} through the page ${page.name}.`);
  return info;
}

type FacebookPage = { id: string; name: string; access_token?: string };

/**
 * The pages a Facebook login connects: those --page names (`p1,p2`), the only one, else
 * those the person picks. Facebook takes several (each its own account) where the terminal
 * or page can ask for several; Instagram through a page takes one.
 */
async function choosePages(pages: FacebookPage[], wanted: string | undefined, platform: 'facebook' | 'instagram' | 'threads', io: ConnectIO): Promise<FacebookPage[]> {
  const ids = (wanted ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const known = () => pages.map((p) => `${p.name} (${p.id})`).join(', ');
  if (ids.length > 1 && platform !== 'facebook') throw new ConnectError(`Instagram connects through one page: --page names ${ids.length}`);
  if (ids.length > 0) {
    return ids.map((id) => {
      const found = pages.find((p) => p.id === id);
      if (!found) throw new ConnectError(`Page ${id} is not among the pages this login may use: ${known()}`);
      return found;
    });
  }
  if (pages.length === 1) return [pages[0] as FacebookPage];
  const choices = pages.map((p) => ({ label: `${p.name} (${p.id})`, value: p }));
  if (platform === 'facebook' && io.chooseMany) {
    const picked = await io.chooseMany('Which Facebook pages? (each one becomes an account)', choices);
    if (picked.length === 0) throw new ConnectError('No page was chosen');
    return picked;
  }
  return [await io.choose('Which Facebook page?', choices)];
}

/** Loopback when the redirect URI is local http; otherwise the user pastes where the browser landed. */
async function authorize(redirectUri: string, build: (p: AuthorizeParams) => string, io: ConnectIO, clock: Clock, timeoutMs?: number): Promise<{ code: string; redirectUri: string }> {
  const u = new URL(redirectUri);
  if (isLoopbackRedirect(u) && !io.receivesRedirect) {
    io.print(`Opening the browser to authorize socialpub. The app must list ${redirectUri} as a valid OAuth redirect URI.`);
    // Port 0 (tests, or an app that registers any loopback port): the listener's real address is the redirect URI.
    const anyPort = u.port === '0';
    const res = await runLoopbackOAuth({
      authorizeUrl: (p) => build(anyPort ? p : { ...p, redirectUri }),
      redirectPath: u.pathname,
      port: Number(u.port || 80),
      openBrowser: io.openBrowser,
      clock,
      timeoutMs,
    });
    return { code: res.code, redirectUri: anyPort ? res.redirectUri : redirectUri };
  }
  const { code } = await authorizeByPaste(io, (state) => build({ redirectUri, state }));
  return { code, redirectUri };
}
