/** The route table and its types, without zod (the SDK's light client reads it through core's index; nothing here loads the schemas). */
export * from './rate-classes';
export * from './route-decl';
export * from './api-routes';
export * from './extension-routes';
export * from './inbox-routes';
