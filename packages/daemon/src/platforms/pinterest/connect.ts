import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import { ask } from '../shared/ask';
import { authorizeCode } from '../shared/authorize-code';
import { exchangeAuthorizationCode } from '../shared/exchange-authorization-code';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import { listBoards, type PinterestBoard } from './boards';
import { PinterestClient } from './pinterest-client';
import { basicAuth, PINTEREST_API_HOST, PINTEREST_TOKEN_PATH, PINTEREST_WWW_HOST, pinterestTokenUpdate, type PinterestTokenResponse } from './refresh-token';

/** Scopes asked for: making and deleting pins (pins:write), reading them back (pins:read), listing boards (boards:read) and the account's name (user_accounts:read). */
export const PINTEREST_SCOPES = ['pins:write', 'pins:read', 'boards:read', 'user_accounts:read'];

export interface PinterestConnectOptions {
  userId: string;
  clientId?: string;
  clientSecret?: string;
  /** The redirect URI registered in the Pinterest app, exactly. Default `http://localhost:8765/callback`. */
  redirectUri?: string;
  /** The board pins go to (its id) instead of asking. */
  boardId?: string;
  timeoutMs?: number;
}

/**
 * `socialpub connect pinterest`: OAuth 2.0 with the user's own Pinterest app
 * (www.pinterest.com/oauth/, a loopback redirect, the code exchanged at
 * api.pinterest.com/v5/oauth/token with the app in HTTP Basic), then the account
 * (/v5/user_account) and its boards (/v5/boards). The board is chosen the way a Facebook
 * page is: `--board <id>`, else asked when there are several.
 */
export async function connectPinterest(options: PinterestConnectOptions, io: ConnectIO, deps: PlatformConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const clientId = await ask(io, options.clientId, 'Pinterest app id');
  const clientSecret = await ask(io, options.clientSecret, 'Pinterest app secret', { secret: true });
  const redirectUri = options.redirectUri ?? 'http://localhost:8765/callback';
  const build = (p: { redirectUri: string; state: string }) =>
    `${baseUrl(PINTEREST_WWW_HOST)}/oauth/?${new URLSearchParams({ client_id: clientId, redirect_uri: p.redirectUri, response_type: 'code', scope: PINTEREST_SCOPES.join(','), state: p.state })}`;
  const { code, redirectUri: usedRedirect } = await authorizeCode({
    redirectUri,
    buildUrl: build,
    registration: (uri) => `the Pinterest app must list ${uri} as a redirect URI`,
    io,
    clock,
    timeoutMs: options.timeoutMs,
  });
  const tokens = (await exchangeAuthorizationCode(
    baseUrl(PINTEREST_API_HOST) + PINTEREST_TOKEN_PATH,
    { grant_type: 'authorization_code', code, redirect_uri: usedRedirect },
    { baseUrl, clock, http: deps.http },
    basicAuth(clientId, clientSecret),
  )) as PinterestTokenResponse;
  const granted = (tokens.scope ?? '').split(/[\s,]+/).filter(Boolean);
  const missing = ['pins:write', 'boards:read', 'pins:read'].filter((s) => !granted.includes(s));
  if (missing.length > 0) throw new ConnectError(`Pinterest granted no ${missing.join(', ')}; the app needs them (and Standard access to pin publicly); connect again`);
  const client = new PinterestClient({ baseUrl: baseUrl(PINTEREST_API_HOST), token: tokens.access_token as string, ...(deps.http ? { http: deps.http } : {}) });
  let account: { id?: string; username?: string; business_name?: string | null };
  let boards: PinterestBoard[];
  try {
    account = granted.includes('user_accounts:read') ? (await client.request<typeof account>('/v5/user_account', { method: 'GET' })).body : {};
    boards = await listBoards(client);
  } catch (err) {
    throw new ConnectError(`Pinterest refused the account or board lookup: ${(err as Error).message}`);
  }
  if (boards.length === 0) throw new ConnectError('The Pinterest account has no boards; create one on Pinterest, then connect again');
  let board: PinterestBoard;
  const wanted = options.boardId?.trim();
  if (wanted) {
    const found = boards.find((b) => b.id === wanted);
    if (!found) throw new ConnectError(`Board ${wanted} is not one of the account's boards: ${boards.map((b) => `${b.name} (${b.id})`).join(', ')}`);
    board = found;
  } else if (boards.length === 1) {
    board = boards[0]!;
  } else {
    board = await io.choose('Which Pinterest board?', boards.map((b) => ({ label: `${b.name} (${b.id})`, value: b })));
  }
  const now = clock.now();
  const update = pinterestTokenUpdate(tokens, now);
  const name = account.business_name || account.username || null;
  const info = deps.connections.save(options.userId, 'pinterest', {
    mode: 'live',
    accountId: account.id ?? account.username ?? clientId,
    accountName: name,
    pageId: board.id,
    pageName: board.name,
    secrets: { ...update.secrets, client_id: clientId, client_secret: clientSecret },
    tokenExpiresAt: update.tokenExpiresAt ?? null,
    refreshExpiresAt: update.refreshExpiresAt ?? null,
    tokenObtainedAt: now,
    meta: { scopes: granted, boards },
  });
  io.print(`Connected Pinterest ${name ?? 'account'}; pins go to board ${board.name} (${board.id}) unless a post names another (platform_options.pinterest.board_id).`);
  io.print(`Boards: ${boards.map((b) => `${b.name} (${b.id})`).join(', ')}`);
  return info;
}
