import type { CallContext } from '../adapter';
import { PermanentError } from '../errors';
import type { TokenRefresher } from '../shared/token-env';
import { GraphApiError, type Params } from './graph-client';
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

/** Graph's "Object with ID … does not exist" (code 100, subcode 33), raw or behind a classified error. */
function isGone(err: unknown): boolean {
  const cause = err instanceof GraphApiError ? err : (err as { cause?: unknown } | null)?.cause;
  return cause instanceof GraphApiError && cause.error.code === 100 && cause.error.error_subcode === 33;
}

/** `DELETE /{id}` of a comment or reply -> `{"success":true}`; one Graph no longer has is already gone. */
export async function deleteGraphObject(run: MetaRun<CallContext>, id: string): Promise<'deleted' | 'already_gone'> {
  try {
    const body = await run.call<{ success?: boolean }>(encodeURIComponent(id), { method: 'DELETE' }, { publishing: true });
    if (body.success !== true) throw new PermanentError(`${run.label} did not confirm the deletion of ${id}: ${JSON.stringify(body).slice(0, 200)}`, { platformCode: 'no-success' });
    return 'deleted';
  } catch (err) {
    if (isGone(err)) return 'already_gone';
    throw err;
  }
}
