export * from './zone-name';
export * from './format-zoned';
export * from './resolve-time';
export * from './weekly-slots';
export * from './rrule-syntax';
export * from './recurrence';
export * from './friendly-repeat';
export { Temporal } from './temporal';
