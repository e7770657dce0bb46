import { backgroundRefresher } from '../shared/background-refresher';
import { refreshYoutubeToken } from './refresh-token';

/** Google connections: refreshed daily (a refresh token unused for 6 months stops working). */
export const youtubeBackgroundRefresher = backgroundRefresher('youtube', refreshYoutubeToken, 24 * 3_600_000);
