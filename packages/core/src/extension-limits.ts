/**
 * Limits of the API's extensions that the route table's texts name (extension-routes.ts),
 * in a module without imports: the table loads without zod. The schemas re-export them
 * where they always were.
 */
/** Webhook endpoints a user may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
