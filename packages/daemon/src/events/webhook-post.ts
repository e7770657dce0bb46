import http from 'node:http';
import https from 'node:https';
import { VERSION } from '@socialpub/core';
import type { ResolvedAddress } from '../net/address-guard';
import { pinnedLookup } from '../net/pinned-lookup';

export interface PostRequest {
  url: URL;
  /** The checked address; the connection goes there and nowhere else. */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** One POST; resolves with the status code once the response head arrives. Redirects are answers, never followed. */
export type PostFn = (req: PostRequest) => Promise<number>;

// Keep-alive per daemon: a receiver that keeps up gets its deliveries over one connection;
// one that is behind gets up to the deliverer's per-endpoint window (32) at once.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export const postWebhook: PostFn = (req) =>
  new Promise<number>((resolve, reject) => {
    const isHttps = req.url.protocol === 'https:';
    const request = (isHttps ? https : http).request(req.url, {
      method: 'POST',
      agent: isHttps ? agents.https : agents.http,
      lookup: pinnedLookup(req.address),
      signal: req.signal,
      headers: {
        ...req.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(req.body)),
        'user-agent': `socialpub-webhooks/${VERSION}`,
      },
    });
    request.on('response', (res) => {
      res.resume(); // the body is not read; the connection goes back to the pool
      resolve(res.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(req.body);
  });
