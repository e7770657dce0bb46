import type { CallContext, Credentials } from '../adapter';
import type { DeleteAnswer, PostRemover, PublishedTarget } from '../remove-post';
import { GraphApiError } from './graph-client';
import { MetaRun, newClient, type MetaAdapterOptions } from './meta-run';
import type { TokenRefresher } from '../shared/token-env';

/** How one Meta platform deletes: its host, version, token and the targets it cannot take down. */
export interface MetaDeletion {
  label: string;
  host: string;
  version: string;
  tokenIn?: 'header' | 'param';
  /** The connection's token for these calls (Facebook: the Page token). */
  token(ctx: CallContext): string;
  refresher: TokenRefresher | null;
  refusal(credentials: Credentials, target: PublishedTarget): string | null;
  remoteIds?(target: PublishedTarget): string[];
}

/** Graph's "Object with ID … does not exist" (code 100, subcode 33): nothing left to delete. */
function isGone(err: unknown): boolean {
  const cause = err instanceof GraphApiError ? err : (err as { cause?: unknown } | null)?.cause;
  return cause instanceof GraphApiError && cause.error.code === 100 && cause.error.error_subcode === 33;
}

/**
 * `DELETE /{object-id}` on a Meta host (docs/reference/platforms.md §12.1.3 Instagram,
 * §12.2.4 Facebook, §12.4.2 Threads) -> `{"success":true}`. Errors are classified as
 * publishing calls: a DELETE without an answer is an unknown outcome, never a plain retry.
 * Existence: `GET /{object-id}?fields=id`.
 */
export function createMetaRemover(d: MetaDeletion, options: MetaAdapterOptions): PostRemover {
  const open = (ctx: CallContext) => new MetaRun(ctx, d.label, newClient(ctx, options, d.host, d.version, d.token(ctx), d.tokenIn ?? 'header'), d.refresher, options.http);
  return {
    refusal: d.refusal,
    remoteIds: d.remoteIds ?? ((target) => [target.postId]),

    async deletePost(ctx, id): Promise<DeleteAnswer> {
      try {
        const body = await open(ctx).call<{ success?: boolean }>(encodeURIComponent(id), { method: 'DELETE' }, { publishing: true });
        if (body.success !== true) throw new GraphApiError(502, { message: `${d.label} did not confirm the deletion of ${id}: ${JSON.stringify(body).slice(0, 200)}`, code: -1, is_transient: true });
        return 'deleted';
      } catch (err) {
        if (isGone(err)) return 'already_gone';
        if (err instanceof GraphApiError) throw await open(ctx).fail(err, true);
        throw err;
      }
    },

    async postExists(ctx, id): Promise<boolean> {
      try {
        await open(ctx).call(encodeURIComponent(id), { params: { fields: 'id' } });
        return true;
      } catch (err) {
        if (isGone(err)) return false;
        throw err;
      }
    },
  };
}

