/** A connection's credentials as adapters, refreshers and the publisher see them (secrets decrypted). */
export interface Credentials {
  connectionId: string;
  mode: 'live' | 'sandbox';
  accountId: string | null;
  accountName: string | null;
  pageId: string | null;
  pageName: string | null;
  /** Decrypted secrets: access_token, refresh_token, app credentials... per platform. */
  secrets: Record<string, string | undefined>;
  tokenExpiresAt: number | null;
  refreshExpiresAt: number | null;
  tokenObtainedAt: number | null;
  meta: Record<string, unknown>;
}

/** New tokens for a connection, stored atomically (access and rotated refresh token together). */
export interface TokenUpdate {
  secrets: Record<string, string | undefined>;
  tokenExpiresAt?: number | null;
  refreshExpiresAt?: number | null;
  tokenObtainedAt?: number | null;
}
