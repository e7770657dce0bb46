import { backgroundRefresher } from '../shared/background-refresher';
import { refreshTiktokToken } from './refresh-token';

/** TikTok connections: refreshed at least twice a day so the 180-day rotating refresh token stays current. */
export const tiktokBackgroundRefresher = backgroundRefresher('tiktok', refreshTiktokToken, 12 * 3_600_000);
