/** `@socialpub/core/routes`: the route table and its types, without zod (the SDK's light client reads it). */
export * from './rate-classes';
export * from './route-decl';
export * from './api-routes';
export * from './extension-routes';
