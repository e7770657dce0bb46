import type { Platform } from '@socialpub/core';
import type { Credentials, TokenUpdate } from '../platforms/adapter';
import type { CredentialsRow } from '../store/credentials';

/**
 * What the publisher needs from the credentials service (store/credentials.ts,
 * `store.credentials`, satisfies it): the decrypted credentials of a user's connection, and
 * the two writes an adapter may ask for while publishing.
 */
export interface ConnectionSource {
  /** The credentials of the account a target names (`connectionId`, else its `label`, else the network's default), or null when there is none. */
  credentialsFor(userId: string, platform: Platform, connectionId?: string | null, label?: string | null): Credentials | null | Promise<Credentials | null>;
  /**
   * Opens the credentials row a claim read with the target (its secrets sealed). Without
   * it (a source that keeps credentials elsewhere), `credentialsFor` is asked instead.
   */
  credentialsOf?(row: CredentialsRow): Credentials;
  saveTokens(connectionId: string, update: TokenUpdate): void | Promise<void>;
  markExpired(connectionId: string, reason: string): void | Promise<void>;
}
