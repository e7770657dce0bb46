import type { Platform } from '@socialpub/core';
import type { Credentials, TokenUpdate } from '../platforms/adapter';

/**
 * What the publisher needs from the credentials service (store/credentials.ts,
 * `store.credentials`, satisfies it): the decrypted credentials of a user's connection, and
 * the two writes an adapter may ask for while publishing.
 */
export interface ConnectionSource {
  /** The connection's credentials, or null when the user has none for the platform. */
  credentialsFor(userId: string, platform: Platform): Credentials | null | Promise<Credentials | null>;
  saveTokens(connectionId: string, update: TokenUpdate): void | Promise<void>;
  markExpired(connectionId: string, reason: string): void | Promise<void>;
}
