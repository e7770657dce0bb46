import { metaTokenRefresher } from '../meta/meta-token-refresher';
import { refreshThreadsToken } from '../meta/token-endpoints';
import type { TokenRefresher } from '../shared/token-env';

/** Threads long-lived tokens (graph.threads.net, >= 24 h old). */
export const threadsTokenRefresher: TokenRefresher = metaTokenRefresher('threads', 'graph.threads.net', refreshThreadsToken);
