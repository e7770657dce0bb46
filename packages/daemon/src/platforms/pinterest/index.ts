import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createPinterestAnalytics } from './analytics';
import { createPinterestAdapter } from './adapter';
import { connectPinterest, type PinterestConnectOptions } from './connect';
import { pinterestTokenRefresher } from './refresh-token';
import { createPinterestRemover } from './remove';
import { pinterestSandbox } from './sim/sandbox';
import { sandboxBoards } from './sim/sandbox-boards';

/** Pinterest: pins and video pins through REST API v5, OAuth 2.0 with refresh tokens. */
export const pinterest: PlatformModule = {
  platform: 'pinterest',
  limits: PLATFORM_INFO.pinterest,
  createAdapter: () => createPinterestAdapter(),
  simulator: pinterestSandbox,
  // The app id/secret may come as --client-id/--client-secret or --app-id/--app-secret; --board picks the board.
  connect: (o, io, deps) =>
    connectPinterest(
      {
        ...(o as unknown as PinterestConnectOptions),
        clientId: (o.clientId as string | undefined) ?? o.appId,
        clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret,
        boardId: (o.boardId as string | undefined) ?? o.pageId,
      },
      io,
      deps,
    ),
  // Access tokens live 30 days: refreshed in the background once a week, keeping the year-long refresh token in use.
  refresher: pinterestTokenRefresher,
  deletion: { supported: true, createRemover: () => createPinterestRemover() },
  // API v5 has no comment paths (pinterest-v5.openapi.json).
  comments: { supported: false, reason: 'Pinterest API v5 has no comment endpoints; read and answer comments on pinterest.com' },
  analytics: () => createPinterestAnalytics(),
  // The simulated account's two boards, the first one chosen (as `connect pinterest` lists and picks).
  sandboxAccount: (suffix) => {
    const boards = sandboxBoards(suffix);
    return { pageId: boards[0]!.id, pageName: boards[0]!.name, meta: { boards } };
  },
  // GET /platforms: the account's boards as listed at connect time (meta.boards).
  connectionFields: (meta) => ({ boards: boardsOf(meta) }),
};

const boardsOf = (meta: Record<string, unknown>): Array<{ id: string; name: string }> =>
  Array.isArray(meta.boards) ? (meta.boards as Array<{ id?: unknown; name?: unknown }>).filter((b) => typeof b.id === 'string').map((b) => ({ id: String(b.id), name: String(b.name ?? b.id) })) : [];
