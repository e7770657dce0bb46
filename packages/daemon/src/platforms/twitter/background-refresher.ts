import { backgroundRefresher } from '../shared/background-refresher';
import { refreshTwitterToken } from './refresh-token';

/** X OAuth 2.0 connections (OAuth 1.0a tokens never expire and are left alone). */
export const twitterBackgroundRefresher = backgroundRefresher('twitter', refreshTwitterToken, 12 * 3_600_000);
