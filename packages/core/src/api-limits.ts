/**
 * Limits of the API that the route table's texts name, in a module without imports (the
 * table is read by the SDK's light client, which must not load zod or the schemas). The
 * schemas re-export them where they always were.
 */
export const MAX_PREPARE_URLS = 10;
export const SANDBOX_POSTS_LIMIT_DEFAULT = 100;
export const SANDBOX_POSTS_LIMIT_MAX = 1000;
