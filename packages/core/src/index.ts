export * from './platforms';
export * from './states';
export * from './errors';
export * from './time';
export * from './plan-targets';
export * from './zoned';
export * from './schemas/common';
export * from './schemas/publish';
export * from './schemas/platform-options';
export * from './schemas/scheduled';
export * from './schemas/media';
export * from './schemas/account';
export * from './schemas/events';
export * from './schemas/zoned';
export * from './schemas/time-resources';
export * from './schemas/sandbox';

export const API_PREFIX = '/api/agents/v1';
export const VERSION = '0.1.0';
