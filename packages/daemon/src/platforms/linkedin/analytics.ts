import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { normalizedFrom, numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import type { LinkedinVersions } from './api-version';
import { LinkedinApiError } from './linkedin-client';
import { encodeUrn, linkedinSession, type LinkedinSession } from './linkedin-session';

const CREATOR_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE'] as const;

/** The LinkedIn error behind a mapped publisher error, if any. */
function apiCause(err: unknown): LinkedinApiError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    if (e instanceof LinkedinApiError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * LinkedIn figures (docs/reference/platforms.md §18.5). The post's author decides the call:
 * - an organization's posts: `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity
 *   &organizationalEntity=…&shares=List(…)` (one call for all of them; `rw_organization_admin`
 *   and the ADMINISTRATOR role): `impressionCount`, `uniqueImpressionsCount`, `clickCount`,
 *   `likeCount`, `commentCount`, `shareCount`, `engagement`;
 * - the member's own: `GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:…)
 *   &queryType=…&aggregation=TOTAL`, one metric a call (`r_member_postAnalytics`):
 *   `IMPRESSION`, `MEMBERS_REACHED`, `REACTION`, `COMMENT`, `RESHARE`.
 * The author is read first (`GET /rest/posts/{urn}`); a 404 there means the post is gone.
 * Versioned headers as every LinkedIn call (linkedin-client.ts). The collector takes at most
 * 100 calls an hour per connection.
 */
export function createLinkedinAnalytics(deps: { versions: LinkedinVersions; http?: Got; requestTimeoutMs?: number }): PostAnalytics {
  async function authorOf(s: LinkedinSession, urn: string): Promise<string | null> {
    try {
      const res = await s.call('post lookup', false, (c) => c.request<{ author?: string }>(`/rest/posts/${encodeUrn(urn)}`, { method: 'GET' }));
      return typeof res.body.author === 'string' ? res.body.author : null;
    } catch (err) {
      if (apiCause(err)?.status === 404) return null;
      throw err;
    }
  }

  async function organizationFigures(s: LinkedinSession, org: string, urns: readonly string[]): Promise<Map<string, PostFigures>> {
    const shares = `List(${urns.map(encodeUrn).join(',')})`;
    const res = await s.call('organization post figures', false, (c) =>
      c.request<{ elements?: Array<Record<string, unknown>> }>(`/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeUrn(org)}&shares=${shares}`, { method: 'GET' }),
    );
    const out = new Map<string, PostFigures>();
    for (const e of res.body.elements ?? []) {
      const urn = typeof e.share === 'string' ? e.share : typeof e.ugcPost === 'string' ? e.ugcPost : null;
      if (!urn) continue;
      const own = numericFields(e.totalShareStatistics);
      out.set(urn, { platformMetrics: own, metrics: normalizedFrom(own, { impressions: 'impressionCount', likes: 'likeCount', comments: 'commentCount', shares: 'shareCount', clicks: 'clickCount' }) });
    }
    return out;
  }

  async function memberFigures(s: LinkedinSession, urn: string): Promise<PostFigures> {
    const own: Record<string, number> = {};
    const kind = urn.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share';
    for (const metric of CREATOR_METRICS) {
      const res = await s.call('member post figures', false, (c) =>
        c.request<{ elements?: Array<{ count?: unknown }> }>(`/rest/memberCreatorPostAnalytics?q=entity&entity=(${kind}:${encodeUrn(urn)})&queryType=${metric}&aggregation=TOTAL`, { method: 'GET' }),
      );
      const count = res.body.elements?.[0]?.count;
      if (typeof count === 'number') own[metric] = count;
    }
    return { platformMetrics: own, metrics: normalizedFrom(own, { impressions: 'IMPRESSION', likes: 'REACTION', comments: 'COMMENT', shares: 'RESHARE' }) };
  }

  return {
    batchSize: 20,
    budget: { calls: 100, windowMs: 3_600_000 },
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      if (!Array.isArray(scopes)) return null;
      const org = typeof credentials.pageId === 'string' && credentials.pageId.startsWith('urn:li:organization:');
      const need = org ? 'rw_organization_admin' : 'r_member_postAnalytics';
      return scopes.includes(need) ? null : `this LinkedIn connection was made without the ${need} permission figures need: reconnect it (socialpub connect linkedin) to read them`;
    },
    async read(ctx: CallContext, postIds) {
      const s = await linkedinSession(ctx, deps);
      const byAuthor = new Map<string, string[]>();
      for (const urn of postIds) {
        const author = await authorOf(s, urn);
        if (!author) continue;
        byAuthor.set(author, [...(byAuthor.get(author) ?? []), urn]);
      }
      const out = new Map<string, PostFigures>();
      for (const [author, urns] of byAuthor) {
        if (author.startsWith('urn:li:organization:')) for (const [urn, f] of await organizationFigures(s, author, urns)) out.set(urn, f);
        else for (const urn of urns) out.set(urn, await memberFigures(s, urn));
      }
      return out;
    },
  };
}
