import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { VERSION } from '@socialpub/core';
import type { ResolvedAddress } from '../media/address-guard';

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
    // Answers on the next tick, as dns.lookup does. A lookup that calls back synchronously
    // makes the socket connect inside tls.connect()/the agent: a connect that fails at once
    // (ENETUNREACH: a name whose address has no route, e.g. IPv6 on a host without it)
    // then destroys the socket before its error listeners exist, and the 'error' event
    // becomes an uncaught exception that ends the process (issue 28, item 1).
    const pinned: LookupFunction = (_host, options, callback) => {
      process.nextTick(() => {
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [req.address]);
        else callback(null, req.address.address, req.address.family);
      });
    };
    const isHttps = req.url.protocol === 'https:';
    const request = (isHttps ? https : http).request(req.url, {
      method: 'POST',
      agent: isHttps ? agents.https : agents.http,
      lookup: pinned,
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
