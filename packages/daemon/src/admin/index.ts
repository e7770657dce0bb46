export { AdminError, DEFAULT_EMAIL, openAdmin, type Admin, type ConnectionListing, type CreatedKey, type KeyListing } from './admin';
