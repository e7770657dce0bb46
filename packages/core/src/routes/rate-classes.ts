/**
 * The names of the rate-limit classes (no imports: the route table and the SDK's light
 * client read them without loading zod). The interface's endpoints keep the interface's
 * four (auth, publish, media, scheduled); every other endpoint declares one of the rest in
 * its route declaration (api-routes.ts); auth_failure counts bad keys per client address.
 * The limits themselves are the daemon's (DEFAULT_RATE_LIMITS in its config.ts); docs/api.md
 * "Rate limits".
 */
export const RATE_CLASSES = [
  'auth',
  'publish',
  'media',
  'scheduled',
  'media_status',
  'validate',
  'review',
  'unpublish',
  'upload',
  'platforms',
  'creator_info',
  'settings',
  'queue',
  'series',
  'events',
  'webhooks',
  'webhook_send',
  'sandbox',
  'account',
  'inbox',
  'inbox_reply',
  'analytics',
  'analytics_refresh',
  'auth_failure',
] as const;
export type RateClass = (typeof RATE_CLASSES)[number];
