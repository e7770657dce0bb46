/**
 * The API's path prefix and the version, in a module of their own with no imports: the SDK
 * client needs only these at start-up, and a bundle then need not load zod or the schemas
 * with it (docs/architecture.md, "Start-up").
 */
export const API_PREFIX = '/api/agents/v1';
export const VERSION = '0.1.0';
