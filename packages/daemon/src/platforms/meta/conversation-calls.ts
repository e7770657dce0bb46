import type { CallContext } from '../adapter';
import type { TokenRefresher } from '../shared/token-env';
import type { Params } from './graph-client';
import { MetaRun, newClient, type MetaAdapterOptions } from './meta-run';

/** Pages of an edge read per listing at most (100 rows a page). */
const MAX_PAGES = 20;

/** How one Meta platform's conversation calls are made: its host, version, token and refresher for a connection. */
export interface MetaConversationHost {
  label: string;
  host(ctx: CallContext): string;
  version: string;
  tokenIn?: 'header' | 'param';
  token(ctx: CallContext): string;
  refresher(ctx: CallContext): TokenRefresher | null;
}

/** A run of Graph calls on a connection's behalf (errors classified as the publisher's, a dead token refreshed once). */
export function openMetaRun(h: MetaConversationHost, ctx: CallContext, options: MetaAdapterOptions): MetaRun<CallContext> {
  return new MetaRun(ctx, h.label, newClient(ctx, options, h.host(ctx), h.version, h.token(ctx), h.tokenIn ?? 'header'), h.refresher(ctx), options.http);
}

/** Every row of a Graph edge, following `paging.cursors.after` while `paging.next` says more remain (at most MAX_PAGES pages). */
export async function readEdge<T>(run: MetaRun<CallContext>, path: string, params: Params): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const body = await run.call<{ data?: T[]; paging?: { next?: string; cursors?: { after?: string } } }>(path, { params: { ...params, limit: 100, ...(after ? { after } : {}) } });
    out.push(...(body.data ?? []));
    after = body.paging?.cursors?.after;
    if (!body.paging?.next || !after) break;
  }
  return out;
}
