import { PLATFORMS, formatInstant, isPlatform, platformDescription, type Platform, type Routes } from '@socialpub/core';
import type { Context } from 'hono';
import type { BrowserConnects, PendingConnect } from '../../connect/browser-connect';
import { ConnectError } from '../../oauth/connect-error';
import { sandboxPasswordOf, saveSandboxConnection } from '../../connect/sandbox-connection';
import { changeAccount, isRefusal, labelOf } from '../../connect/account-changes';
import type { ConnectionInfo } from '../../store/connections';
import { pauseInfo } from '../../store/platform-pauses';
import type { RouteDeps } from '../deps';
import { ApiError, invalid } from '../errors';
import { readJsonObject } from '../json-body';
import type { RouteHandlers } from '../route-table/mount-route';

export interface ConnectionsRoutesDeps extends Pick<RouteDeps, 'store' | 'clock' | 'config'> {
  connects: BrowserConnects;
}

/** The callback path the platforms' apps list as their redirect URI (dashboard connects). */
export const CONNECT_CALLBACK_PATH = '/connect/callback';

/** The daemon's own base URL as the browser reaches it: the public URL, else the request's origin (https behind a TLS proxy). */
export function ownBaseUrl(c: Context, config: RouteDeps['config']): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const url = new URL(c.req.url);
  if (config.behindProxy) url.protocol = 'https:';
  return url.origin;
}

const platformOf = (name: string): Platform => {
  if (!isPlatform(name)) throw new ApiError('invalid_request', `unknown platform ${name} (one of: ${PLATFORMS.join(', ')})`, [{ path: 'platform', message: `one of ${PLATFORMS.join(', ')}` }]);
  return name;
};

/** Optional string fields of an authorize request, checked. */
const AUTHORIZE_FIELDS = ['client_id', 'client_secret', 'login', 'audited', 'privacy_level', 'handle', 'app_password', 'server', 'label'] as const;

/**
 * The caller's platform connections (extension, for the dashboard's Connections screen):
 * list, sandbox connect, remove, and the live OAuth flow (authorize -> the platform's
 * consent page -> GET /connect/callback -> a page choice when the platform asks one).
 * Connecting again replaces the platform's connection (how an expired one is reconnected).
 * Declared in core's route table; the routes with a body read it themselves (their own
 * messages, and `choice` read as page_id, as always).
 */
export function connectionsHandlers({
  store,
  clock,
  config,
  connects,
}: ConnectionsRoutesDeps): RouteHandlers<Routes, 'connections.list' | 'connections.sandbox' | 'connections.update' | 'connections.remove' | 'connections.pending' | 'connections.choose' | 'connections.authorize'> {
  // `full`: the caller may see the sandbox password (a sign-in credential): a full key or a
  // dashboard session, never a read or agent key (a widget or an agent need not sign in as the account).
  const present = (c: ConnectionInfo, full = true) => ({
    id: c.id,
    platform: c.platform,
    label: c.label,
    is_default: c.isDefault,
    name: c.pageName ?? c.accountName ?? c.accountId,
    status: c.status,
    status_reason: c.statusReason,
    sandbox: c.mode === 'sandbox',
    account_id: c.accountId,
    account_name: c.accountName,
    page_id: c.pageId,
    page_name: c.pageName,
    // Only ever the caller's own connections are presented: the password is its owner's.
    ...(c.mode === 'sandbox' && full ? { sandbox_password: sandboxPasswordOf(store.credentials, c) } : {}),
    token_expires_at: c.tokenExpiresAt === null ? null : formatInstant(c.tokenExpiresAt),
    paused: pauseInfo(store.platformPauses.forConnection(c.userId, c.platform, clock.now(), c.id)),
    created_at: formatInstant(c.createdAt),
    updated_at: formatInstant(c.updatedAt),
  });
  const presentPending = (p: PendingConnect) => ({
    id: p.id,
    platform: p.platform,
    status: p.status,
    authorize_url: p.authorizeUrl,
    redirect_uri: p.redirectUri,
    question: p.question,
    choices: p.choices,
    multiple: p.multiple,
    connection: p.connection ? present(p.connection) : null,
    connections: p.connections.map((conn) => present(conn)),
    error: p.error,
    messages: p.messages,
    expires_at: formatInstant(p.expiresAt),
  });

  return {
    'connections.list': (_input, c) => {
      const full = c.get('scope') === 'full';
      return { data: store.connections.listForUser(c.get('user').id).map((conn) => present(conn, full)) };
    },
    'connections.sandbox': { raw: true, handle: async (c) => {
      const body = await readJsonObject(c);
      if (typeof body.platform !== 'string') throw invalid([{ path: 'platform', message: `required: one of ${PLATFORMS.join(', ')}` }]);
      const platform = platformOf(body.platform);
      const label = labelOf(body.label);
      if (!label.ok) throw invalid([{ path: 'label', message: label.message }]);
      const userId = c.get('user').id;
      const saved = await store.commits.durable(() => saveSandboxConnection(store.connections, userId, platform, clock.now(), label.label));
      return present(saved);
    } },
    'connections.update': { raw: true, handle: async (c) => {
      const id = c.req.param('id') ?? '';
      const body = await readJsonObject(c);
      const details = Object.keys(body).filter((k) => k !== 'label' && k !== 'default').map((k) => ({ path: k, message: 'unknown field' }));
      if (body.label !== undefined && typeof body.label !== 'string') details.push({ path: 'label', message: 'must be a string' });
      if (body.default !== undefined && body.default !== true) details.push({ path: 'default', message: 'only true: make another account the default to change it' });
      if (body.label === undefined && body.default === undefined) details.push({ path: 'label', message: 'give label, default: true, or both' });
      if (details.length > 0) throw invalid(details);
      const found = store.connections.getById(id);
      if (!found || found.userId !== c.get('user').id) throw new ApiError('not_found', `no connection ${id}`);
      const change = { ...(typeof body.label === 'string' ? { label: body.label } : {}), ...(body.default === true ? { default: true as const } : {}) };
      const changed = await store.commits.durable(() => changeAccount(store.connections, found, change));
      if (isRefusal(changed)) {
        if (changed.conflict) throw new ApiError('conflict', changed.message, [{ path: changed.field, message: changed.message }]);
        throw invalid([{ path: changed.field, message: changed.message }]);
      }
      return present(changed);
    } },
    'connections.remove': async ({ params: { id } }, c) => {
      const found = store.connections.getById(id);
      if (!found || found.userId !== c.get('user').id) throw new ApiError('not_found', `no connection ${id}`);
      await store.commits.durable(() => store.connections.removeById(id));
      return undefined;
    },
    'connections.pending': ({ params: { id } }, c) => {
      const pending = connects.get(c.get('user').id, id);
      if (!pending) throw new ApiError('not_found', `no connect in progress ${id} (they last 10 minutes)`);
      return presentPending(pending);
    },
    'connections.choose': { raw: true, handle: async (c) => {
      const body = await readJsonObject(c);
      // page_ids: several choices where the question takes several (each becomes an account).
      const many = Array.isArray(body.page_ids) && body.page_ids.length > 0 && body.page_ids.length <= 100 && body.page_ids.every((x) => typeof x === 'string') ? (body.page_ids as string[]) : null;
      if (body.page_ids !== undefined && many === null) throw invalid([{ path: 'page_ids', message: 'a list of 1 to 100 choice ids' }]);
      const choice = many ?? (typeof body.page_id === 'string' ? body.page_id : typeof body.choice === 'string' ? body.choice : null);
      if (choice === null) throw invalid([{ path: 'page_id', message: 'required: the id of one of the choices (or page_ids: several, where the question takes several)' }]);
      const id = c.req.param('id') ?? '';
      const answer = await connects.choose(c.get('user').id, id, choice);
      if (answer === null) throw new ApiError('not_found', `no connect in progress ${id} (they last 10 minutes)`);
      if (answer === false) throw new ApiError('conflict', `${typeof choice === 'string' ? choice : choice.join(', ')} is not among this connect's choices, it takes one choice, or it asks none now`);
      return presentPending(answer);
    } },
    'connections.authorize': { raw: true, handle: async (c) => {
      const platform = platformOf(c.req.param('platform') ?? '');
      const body = await readJsonObject(c, { allowEmpty: true });
      const details = Object.keys(body)
        .filter((k) => !(AUTHORIZE_FIELDS as readonly string[]).includes(k))
        .map((k) => ({ path: k, message: 'unknown field' }));
      for (const k of ['client_id', 'client_secret', 'login', 'privacy_level', 'handle', 'app_password', 'server'] as const) {
        const v = body[k];
        if (v !== undefined && (typeof v !== 'string' || v.length > 500)) details.push({ path: k, message: 'must be a string' });
      }
      if (body.login !== undefined && body.login !== 'instagram' && body.login !== 'facebook') details.push({ path: 'login', message: 'instagram or facebook' });
      if (body.audited !== undefined && typeof body.audited !== 'boolean') details.push({ path: 'audited', message: 'must be true or false' });
      // A platform that connects without an app of the person's own (Bluesky, Mastodon) asks its own fields instead.
      const own = platformDescription(platform)?.connect.browserFields;
      if (own) {
        for (const f of own) if (typeof body[f.field] !== 'string' || (body[f.field] as string).trim() === '') details.push({ path: f.field, message: `required: ${f.label.toLowerCase()}` });
      } else if (typeof body.client_id !== 'string' || body.client_id.trim() === '') details.push({ path: 'client_id', message: "required: your app's id (client id, client key)" });
      // Another account of the platform (or the one of that label, connected again), as `socialpub connect --label`.
      const label = labelOf(body.label);
      if (!label.ok) details.push({ path: 'label', message: label.message });
      if (details.length > 0) throw invalid(details);
      const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : undefined);
      const options = {
        userId: c.get('user').id,
        appId: str('client_id'),
        clientId: str('client_id'),
        appSecret: str('client_secret') ?? '',
        clientSecret: str('client_secret') ?? '',
        redirectUri: `${ownBaseUrl(c, config)}${CONNECT_CALLBACK_PATH}`,
        // X: the browser flow (OAuth 2.0); pasted OAuth 1.0a tokens are for `socialpub connect`.
        auth: 'oauth2',
        ...(str('login') ? { login: str('login') as 'instagram' | 'facebook' } : {}),
        ...(body.audited !== undefined ? { audited: body.audited } : {}),
        ...(str('privacy_level') ? { privacyLevel: str('privacy_level') } : {}),
        ...Object.fromEntries((own ?? []).map((f) => [f.option, str(f.field)])),
        ...(label.ok && label.label !== null ? { label: label.label } : {}),
      };
      let pending: PendingConnect;
      try {
        pending = await connects.start(options.userId, platform, options, options.redirectUri);
      } catch (e) {
        if (e instanceof ConnectError) throw new ApiError('invalid_request', e.message);
        throw e;
      }
      if (pending.status === 'failed') throw new ApiError('invalid_request', pending.error ?? `the ${platform} connect failed`);
      return { ...presentPending(pending), pending_id: pending.id };
    } },
  };
}
