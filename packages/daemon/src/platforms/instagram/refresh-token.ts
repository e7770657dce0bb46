import { metaTokenRefresher } from '../meta/meta-token-refresher';
import { refreshInstagramToken } from '../meta/token-endpoints';
import type { TokenRefresher } from '../shared/token-env';

/** Instagram Login tokens (graph.instagram.com, >= 24 h old); Facebook Login tokens cannot be refreshed: re-authenticate. */
export const instagramTokenRefresher: TokenRefresher = metaTokenRefresher('instagram', 'graph.instagram.com', refreshInstagramToken, (c) => c.meta.login !== 'facebook');
