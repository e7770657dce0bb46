import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { RootLogger } from '../../util/logger';
import type { AppEnv } from '../env';

export interface RequestContextOptions {
  logger: RootLogger;
  /** Request id generator (default req_<uuid>; randomUUID draws from a cached entropy pool, so it costs nothing per request). */
  generator?: () => string;
  /** Time source for the access log's duration (default performance.now). */
  now?: () => number;
}

/** Gives each request an id (echoed as X-Request-Id) and a logger that carries it; logs one line per request. */
export function requestContext({ logger, generator = () => `req_${randomUUID().replaceAll('-', '')}`, now = () => performance.now() }: RequestContextOptions): MiddlewareHandler<AppEnv> {
  return async function requestContext(c, next) {
    const requestId = generator();
    const log = logger.child({ request_id: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before the handler runs, so it lands on every response the context builds (errors
    // included) without touching c.res.headers afterwards, which would make the Node adapter
    // materialise a full Response and leave its fast path.
    c.header('X-Request-Id', requestId);
    const started = now();
    await next();
    log.debug('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((now() - started) * 100) / 100 });
  };
}
