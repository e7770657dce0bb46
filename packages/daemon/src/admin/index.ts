export { AdminError, DEFAULT_EMAIL, openAdmin, adminDatabase, type Admin, type ConnectionListing, type CreatedKey, type KeyListing, type UserSettings } from './admin';
export { migrateToPostgres, type MigrateToPostgresOptions, type MigrateToPostgresReport } from './migrate-to-postgres';
