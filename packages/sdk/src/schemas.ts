/**
 * Every schema an answer is checked against: core's, and the few the SDK composes itself.
 * Imported only by transport.ts's loadSchemas(), with import(), so zod and the schemas are
 * built on the first answer checked, never by importing the SDK or by a client that does
 * not check (ClientOptions.validateResponses). Resource methods pick theirs by name:
 * `schema: (s) => s.ListResponseSchema`.
 */
export * from '@socialpub/core';
export * from './webhook-schemas';
