import type { Got } from 'got';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { normalizedFrom, type PostAnalytics, type PostFigures } from '../post-analytics';
import { GoogleApiError, GoogleClient } from './google-client';
import { mapGoogleError } from './map-google-error';
import { youtubeTokenRefresher } from './refresh-token';

const HOST = 'www.googleapis.com';
/** Any of these grants reads statistics (connect asks for youtube.readonly and youtube.force-ssl). */
const READING_SCOPES = ['youtube.readonly', 'youtube.force-ssl', 'youtube'].map((s) => `https://www.googleapis.com/auth/${s}`);

/**
 * YouTube figures (docs/reference/platforms.md §18.6): `videos.list?part=statistics&id=`
 * with up to 50 ids, 1 quota unit a call: `viewCount`, `likeCount`, `commentCount`,
 * `favoriteCount` (Google sends them as strings; read as numbers). Needs `youtube.readonly`
 * (or `youtube` / `youtube.force-ssl`). A project has 10,000 units a day, shared with
 * uploads (1,600 each): the collector takes at most 100 calls a day per channel.
 */
export function createYoutubeAnalytics(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostAnalytics {
  return {
    batchSize: 50,
    budget: { calls: 100, windowMs: 86_400_000 },
    refusal(credentials) {
      const scopes = credentials.meta.scopes;
      if (!Array.isArray(scopes) || scopes.some((s) => READING_SCOPES.includes(String(s)))) return null;
      return 'this YouTube connection was made without the youtube.readonly scope figures need: reconnect it (socialpub connect youtube) to read them';
    },
    async read(ctx, postIds) {
      const token = await ensureAccessToken(ctx, youtubeTokenRefresher);
      const client = new GoogleClient({ baseUrl: ctx.baseUrl(HOST), token, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
      const items = await callRenewingToken(ctx, () => client.videoStatistics(postIds), {
        refused: (err) => err instanceof GoogleApiError && err.status === 401,
        renew: async () => client.setToken(await ensureAccessToken(ctx, youtubeTokenRefresher, { force: true })),
        mapError: (err) => mapGoogleError(err, { now: ctx.clock.now(), step: 'reading video statistics' }),
      });
      const out = new Map<string, PostFigures>();
      for (const v of items) {
        const own = Object.fromEntries(Object.entries(v.statistics).flatMap(([k, raw]) => (typeof raw === 'string' && /^\d+$/.test(raw) ? [[k, Number(raw)]] : typeof raw === 'number' ? [[k, raw]] : [])));
        out.set(v.id, { platformMetrics: own, metrics: normalizedFrom(own, { views: 'viewCount', likes: 'likeCount', comments: 'commentCount' }) });
      }
      return out;
    },
  };
}
